/**
 * The kinds of image the service keeps, named after the media routes that serve them (so a stored
 * key reads like its public path), and the limits each kind's uploads must meet.
 */

export const KINDS = [
  /** A user's avatar: GET /avatars/{user_id}/{hash}. */
  "avatars",
  /** A user's profile banner: GET /user-banners/{user_id}/{hash}. */
  "user-banners",
  /** A guild's icon: GET /icons/{guild_id}/{hash}. */
  "icons",
  /** A guild's banner: GET /banners/{guild_id}/{hash}. */
  "banners",
  /** A developer application's icon: GET /app-icons/{application_id}/{hash}. */
  "app-icons"
] as const
export type ImageKind = (typeof KINDS)[number]

export const isKind = (value: string): value is ImageKind => (KINDS as ReadonlyArray<string>).includes(value)

export interface ImageLimits {
  /** Bytes of the decoded upload (not of its base64 text, nor of the re-encoded result). */
  readonly maxBytes: number
  readonly maxWidth: number
  /** Of one frame, for animations. */
  readonly maxHeight: number
  readonly maxFrames: number
  /**
   * Width × height × frames. A small GIF can hold hundreds of large frames (identical frames
   * compress to almost nothing), and decoding costs memory and time per pixel: this bounds both.
   */
  readonly maxTotalPixels: number
}

// "1 MB" and "3 MB" of the spec are read as MiB: the mirrored platform measures upload sizes in
// binary units (its message for the limit says "1024.0 kb"), and a file manager's "1 MB" file of
// 1,040,000 bytes should not be refused.
const MiB = 1024 * 1024

const AVATAR: ImageLimits = {
  maxBytes: 1 * MiB,
  maxWidth: 1024,
  maxHeight: 1024,
  maxFrames: 500,
  // 32 full-size frames: about 128 MiB of pixels while decoding.
  maxTotalPixels: 32 * 1024 * 1024
}

const BANNER: ImageLimits = {
  maxBytes: 3 * MiB,
  maxWidth: 2048,
  maxHeight: 2048,
  maxFrames: 500,
  // 16 full-size frames: about 256 MiB of pixels while decoding.
  maxTotalPixels: 16 * 2048 * 2048
}

export const limits: Readonly<Record<ImageKind, ImageLimits>> = {
  avatars: AVATAR,
  "user-banners": BANNER,
  // A guild icon is shown where avatars are, a guild banner where profile banners are.
  icons: AVATAR,
  banners: BANNER,
  // An application's icon is shown where avatars are (its bot's profile, the consent page).
  "app-icons": AVATAR
}
