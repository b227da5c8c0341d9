/** @veche/s3: the `MediaStorage` port in an S3-compatible bucket (SigV4 by aws4fetch, over Effect's HttpClient). */
export * as S3MediaStorage from "./S3MediaStorage.ts"
