/**
 * Turns an uploaded data URI into an image safe to show to everyone: the type is read from the
 * bytes, the size and the pixel dimensions are checked against the kind's limits (dimensions from
 * the header, before any pixel is decoded), and the image is decoded and encoded anew by the
 * host's `ImageCodec` (sharp/libvips in `@veche/sharp`) in the type it came in. Only pixels (and
 * an animation's frame timing) survive: EXIF, GPS, comments, ICC profiles and anything appended
 * to the file are dropped, so a crafted file (a polyglot, a payload behind the image's end) never
 * reaches other users as sent.
 *
 * The hash names the result: a digest of the encoded bytes, 32 hex digits like the mirrored
 * platform's, with its `a_` prefix for animations (clients pick `.gif` for those). An animation
 * may be kept to its first frame (`Options.animation`): a still image of the same type, no `a_`,
 * as the mirrored platform stores an animated avatar from an account without its paid plan.
 */
import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import * as DataUri from "./DataUri.ts"
import { ImageCodec, type ImageInfo } from "./ImageCodec.ts"
import * as ImageFormat from "./ImageFormat.ts"
import type { ImageLimits } from "./ImageKind.ts"
import { ImageRejected } from "./MediaErrors.ts"

export interface ProcessedImage {
  readonly bytes: Uint8Array
  readonly format: ImageFormat.ImageFormat
  readonly contentType: string
  readonly width: number
  /** Of one frame. */
  readonly height: number
  readonly frames: number
  readonly animated: boolean
  readonly hash: string
}

export interface Options {
  /** `keep` (default): every frame; `first_frame`: an animation is stored as its first frame, still. */
  readonly animation?: "keep" | "first_frame" | undefined
}

/** `a_` + 32 hex digits for animations, 32 hex digits otherwise. */
export const HASH = /^(?:a_)?[0-9a-f]{32}$/

/**
 * A decode that takes longer is abandoned and the upload refused: a file within every limit can
 * still be built to be slow to decode, and a person waits for the answer.
 */
export const PROCESSING_TIMEOUT_SECONDS = 20

const hashOf = (bytes: Uint8Array, animated: boolean): string =>
  `${animated ? "a_" : ""}${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}`

/** Dimensions as shown and the frame count, checked against the limits before anything is decoded. */
const readHeader = (
  codec: ImageCodec["Service"],
  bytes: Uint8Array,
  format: ImageFormat.ImageFormat
): Effect.Effect<ImageInfo, ImageRejected> =>
  codec.inspect(bytes).pipe(
    Effect.mapError(() => ImageRejected.invalid()),
    // The signature said one type; the decoder must agree, or the file is built to be read two ways.
    Effect.filterOrFail(
      (info) => info.format === format,
      () => ImageRejected.invalid()
    )
  )

const checkLimits = (header: ImageInfo, limits: ImageLimits): Effect.Effect<void, ImageRejected> => {
  if (header.width > limits.maxWidth || header.height > limits.maxHeight) {
    return Effect.fail(ImageRejected.dimensionsTooLarge(limits.maxWidth, limits.maxHeight))
  }
  if (header.frames > limits.maxFrames || header.width * header.height * header.frames > limits.maxTotalPixels) {
    return Effect.fail(ImageRejected.animationTooLarge())
  }
  return Effect.void
}

const reencode = (
  codec: ImageCodec["Service"],
  bytes: Uint8Array,
  format: ImageFormat.ImageFormat,
  animated: boolean,
  limits: ImageLimits
): Effect.Effect<Uint8Array, ImageRejected> =>
  codec
    .reencode(bytes, format, {
      // false decodes the first frame only
      animated,
      // The header was checked; this holds the decoder to it should the header have lied.
      maxTotalPixels: limits.maxTotalPixels,
      timeoutSeconds: PROCESSING_TIMEOUT_SECONDS
    })
    .pipe(
      Effect.catchTags({
        PixelLimitExceeded: () => Effect.fail(ImageRejected.dimensionsTooLarge(limits.maxWidth, limits.maxHeight)),
        UndecodableImage: () => Effect.fail(ImageRejected.invalid())
      })
    )

/** The image in a data URI, checked against `limits` and re-encoded by the `ImageCodec`. CPU-heavy: callers bound concurrency. */
export const process = Effect.fn("ImageUpload.process")(function* (
  dataUri: string,
  limits: ImageLimits,
  options: Options = {}
) {
  const bytes = yield* DataUri.decode(dataUri, limits.maxBytes)
  return yield* processBytes(bytes, limits, options)
})

/** As `process`, for bytes already decoded (the size limit is checked here too). */
export const processBytes = Effect.fn("ImageUpload.processBytes")(function* (
  bytes: Uint8Array,
  limits: ImageLimits,
  options: Options = {}
) {
  if (bytes.length > limits.maxBytes) return yield* ImageRejected.tooLarge(limits.maxBytes)
  const detected = ImageFormat.detect(bytes)
  if (Option.isNone(detected)) return yield* ImageRejected.unsupportedType()
  const format = detected.value
  const codec = yield* ImageCodec
  const header = yield* readHeader(codec, bytes, format)
  // The whole upload is held to the limits, even when only its first frame is kept.
  yield* checkLimits(header, limits)
  const animated = header.frames > 1 && options.animation !== "first_frame"
  const output = yield* reencode(codec, bytes, format, animated, limits)
  return {
    bytes: output,
    format,
    contentType: ImageFormat.contentType(format),
    width: header.width,
    height: header.height,
    frames: animated ? header.frames : 1,
    animated,
    hash: hashOf(output, animated)
  } satisfies ProcessedImage
})
