/**
 * What can go wrong with an image: the upload is refused (an answer for the person: 400 50035 on
 * the image's field), no storage is connected (501), or the storage cannot be reached (503).
 */
import { Schema } from "effect"

/** Why an upload was refused; `code` and `message` are the 50035 field error to answer with. */
export const REJECTION_REASONS = [
  /** Not a base64 `data:image/...` URI. */
  "not_data_uri",
  /** More bytes than the kind allows. */
  "too_large",
  /** Wider or taller than the kind allows, or an animation with too many pixels in all. */
  "dimensions_too_large",
  /** Bytes of a type other than PNG, JPEG, GIF or WebP. */
  "unsupported_type",
  /** The bytes claim a supported type but do not decode (truncated, corrupt, crafted). */
  "invalid"
] as const
export type RejectionReason = (typeof REJECTION_REASONS)[number]

/** The mirrored platform's field code for an oversized file (its message counts KiB as "kb"). */
export const CODE_TOO_LARGE = "BINARY_TYPE_MAX_SIZE"
/** The mirrored platform's field code for image data it cannot use. */
export const CODE_INVALID = "IMAGE_INVALID"
/** Ours: the mirrored platform resizes large images instead of refusing them. */
export const CODE_DIMENSIONS = "IMAGE_DIMENSIONS_TOO_LARGE"

export class ImageRejected extends Schema.TaggedError<ImageRejected>()("ImageRejected", {
  reason: Schema.Literals(REJECTION_REASONS),
  code: Schema.String,
  message: Schema.String
}) {
  static notDataUri(): ImageRejected {
    return new ImageRejected({
      reason: "not_data_uri",
      code: CODE_INVALID,
      message: "Invalid image data: expected a data URI (data:image/png;base64,...)."
    })
  }

  static tooLarge(maxBytes: number): ImageRejected {
    return new ImageRejected({
      reason: "too_large",
      code: CODE_TOO_LARGE,
      message: `File cannot be larger than ${(maxBytes / 1024).toFixed(1)} kb.`
    })
  }

  static dimensionsTooLarge(maxWidth: number, maxHeight: number): ImageRejected {
    return new ImageRejected({
      reason: "dimensions_too_large",
      code: CODE_DIMENSIONS,
      message: `Image cannot be larger than ${maxWidth}x${maxHeight} pixels.`
    })
  }

  static animationTooLarge(): ImageRejected {
    return new ImageRejected({
      reason: "dimensions_too_large",
      code: CODE_DIMENSIONS,
      message: "Animation has too many frames."
    })
  }

  static unsupportedType(): ImageRejected {
    return new ImageRejected({
      reason: "unsupported_type",
      code: CODE_INVALID,
      message: "Invalid image data: use PNG, JPEG, GIF or WebP."
    })
  }

  static invalid(): ImageRejected {
    return new ImageRejected({ reason: "invalid", code: CODE_INVALID, message: "Invalid image data." })
  }
}

/** No image storage is connected to this server (`SERVICE_MEDIA_STORAGE=none`): callers answer 501. */
export class StorageNotConnected extends Schema.TaggedError<StorageNotConnected>()("StorageNotConnected", {}) {}

/**
 * The storage could not be reached or refused the operation (disk full, bucket down, wrong
 * credentials). `reason` is safe to log: it never carries credentials or signed URLs.
 */
export class StorageUnavailable extends Schema.TaggedError<StorageUnavailable>()("StorageUnavailable", {
  reason: Schema.String
}) {}
