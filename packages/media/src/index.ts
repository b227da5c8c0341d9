/**
 * @veche/media: images people upload (avatars, banners, guild icons). `ImageUpload` checks and
 * re-encodes a data URI through the `ImageCodec` port (sharp in `@veche/sharp`); `MediaStorage` is the
 * port to where the bytes live (memory, none, `FsMediaStorage`; `S3MediaStorage` is in `@veche/s3`;
 * `MediaStorageConfig` picks one for hosts); `ProfileImages`
 * is the service handlers use; `MediaUserImages` answers the users domain's `UserImages` port with it.
 */
export * as DataUri from "./DataUri.ts"
export * as FsMediaStorage from "./FsMediaStorage.ts"
export * as ImageCodec from "./ImageCodec.ts"
export * as ImageFormat from "./ImageFormat.ts"
export * as ImageKind from "./ImageKind.ts"
export * as ImageUpload from "./ImageUpload.ts"
export * as MediaErrors from "./MediaErrors.ts"
export * as MediaKey from "./MediaKey.ts"
export * as MediaStorage from "./MediaStorage.ts"
export * as MediaStorageConfig from "./MediaStorageConfig.ts"
export * as MediaUserImages from "./MediaUserImages.ts"
export * as ProfileImages from "./ProfileImages.ts"
