/**
 * Turns an uploaded data URI into an image safe to show to everyone: the type is read from the
 * bytes, the size and the pixel dimensions are checked against the kind's limits (dimensions from
 * the header, before any pixel is decoded), and the image is decoded and encoded anew by sharp
 * (libvips) in the type it came in. Only pixels (and an animation's frame timing) survive: EXIF,
 * GPS, comments, ICC profiles and anything appended to the file are dropped, so a crafted file
 * (a polyglot, a payload behind the image's end) never reaches other users as sent.
 *
 * The hash names the result: a digest of the encoded bytes, 32 hex digits like the mirrored
 * platform's, with its `a_` prefix for animations (clients pick `.gif` for those).
 */
import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import type { Sharp } from "sharp"
import * as DataUri from "./DataUri.ts"
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

/** `a_` + 32 hex digits for animations, 32 hex digits otherwise. */
export const HASH = /^(?:a_)?[0-9a-f]{32}$/

/**
 * A decode that takes longer is abandoned and the upload refused: a file within every limit can
 * still be built to be slow to decode, and a person waits for the answer.
 */
export const PROCESSING_TIMEOUT_SECONDS = 20

const hashOf = (bytes: Uint8Array, animated: boolean): string =>
  `${animated ? "a_" : ""}${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}`

interface Header {
  readonly width: number
  readonly height: number
  readonly frames: number
}

/**
 * sharp, loaded at the first image rather than at start: libvips and its libraries are resident
 * memory every server would pay, most of which never process an image (27 MB loaded alone; the
 * reference server's idle RSS fell by 8 MB). A failed load is a defect (the dependency is
 * missing), not a bad image.
 */
type SharpFactory = typeof import("sharp").default
let loading: Promise<SharpFactory> | undefined
const sharpModule: Effect.Effect<SharpFactory> = Effect.promise(() => {
  loading ??= import("sharp").then((module) => module.default)
  return loading
})

/** Dimensions as the header states them, and as the image will be shown (EXIF orientation applied). */
const readHeader = (bytes: Uint8Array, format: ImageFormat.ImageFormat): Effect.Effect<Header, ImageRejected> =>
  Effect.flatMap(sharpModule, (sharp) =>
    Effect.tryPromise({
      // Reads the header only; nothing is decoded yet.
      try: () => sharp(bytes, { animated: true }).metadata(),
      catch: () => ImageRejected.invalid()
    })
  ).pipe(
    Effect.flatMap((metadata) => {
      // The signature said one type; the decoder must agree, or the file is built to be read two ways.
      if (metadata.format !== format) return Effect.fail(ImageRejected.invalid())
      const frames = Math.max(1, metadata.pages ?? 1)
      const frameHeight = metadata.pageHeight ?? metadata.height
      // Orientations 5-8 turn the image a quarter: its width is shown as height.
      const turned = (metadata.orientation ?? 1) >= 5
      return Effect.succeed({
        width: turned ? frameHeight : metadata.width,
        height: turned ? metadata.width : frameHeight,
        frames
      })
    })
  )

const checkLimits = (header: Header, limits: ImageLimits): Effect.Effect<void, ImageRejected> => {
  if (header.width > limits.maxWidth || header.height > limits.maxHeight) {
    return Effect.fail(ImageRejected.dimensionsTooLarge(limits.maxWidth, limits.maxHeight))
  }
  if (header.frames > limits.maxFrames || header.width * header.height * header.frames > limits.maxTotalPixels) {
    return Effect.fail(ImageRejected.animationTooLarge())
  }
  return Effect.void
}

const encode = (pipeline: Sharp, format: ImageFormat.ImageFormat): Sharp => {
  switch (format) {
    case "png":
      return pipeline.png()
    case "jpeg":
      return pipeline.jpeg({ quality: 90 })
    // GIF keeps its palette where it can; frame delays and the loop count carry over by default.
    case "gif":
      return pipeline.gif()
    case "webp":
      return pipeline.webp({ quality: 90 })
  }
}

const reencode = (
  bytes: Uint8Array,
  format: ImageFormat.ImageFormat,
  header: Header,
  limits: ImageLimits
): Effect.Effect<Uint8Array, ImageRejected> =>
  Effect.flatMap(sharpModule, (sharp) =>
    Effect.tryPromise({
      try: () => {
        const animated = header.frames > 1
        const pipeline = sharp(bytes, {
          animated,
          // The header was checked; this holds the decoder to it should the header have lied.
          limitInputPixels: limits.maxTotalPixels,
          // sharp's advice for untrusted input: refuse anything the decoder warns about.
          failOn: "warning",
          // Turn photos upright before their EXIF (orientation included) is dropped.
          autoOrient: !animated
        }).timeout({ seconds: PROCESSING_TIMEOUT_SECONDS })
        // No keepMetadata/withMetadata: sharp writes no EXIF, XMP, IPTC or ICC then (colours are
        // converted to sRGB first).
        return encode(pipeline, format).toBuffer()
      },
      catch: (error) =>
        String(error).includes("pixel limit")
          ? ImageRejected.dimensionsTooLarge(limits.maxWidth, limits.maxHeight)
          : ImageRejected.invalid()
    })
  )

/** The image in a data URI, checked against `limits` and re-encoded. CPU-heavy: callers bound concurrency. */
export const process = Effect.fn("ImageUpload.process")(function* (dataUri: string, limits: ImageLimits) {
  const bytes = yield* DataUri.decode(dataUri, limits.maxBytes)
  return yield* processBytes(bytes, limits)
})

/** As `process`, for bytes already decoded (the size limit is checked here too). */
export const processBytes = Effect.fn("ImageUpload.processBytes")(function* (bytes: Uint8Array, limits: ImageLimits) {
  if (bytes.length > limits.maxBytes) return yield* ImageRejected.tooLarge(limits.maxBytes)
  const detected = ImageFormat.detect(bytes)
  if (Option.isNone(detected)) return yield* ImageRejected.unsupportedType()
  const format = detected.value
  const header = yield* readHeader(bytes, format)
  yield* checkLimits(header, limits)
  const output = yield* reencode(bytes, format, header, limits)
  const animated = header.frames > 1
  return {
    bytes: output,
    format,
    contentType: ImageFormat.contentType(format),
    width: header.width,
    height: header.height,
    frames: header.frames,
    animated,
    hash: hashOf(output, animated)
  } satisfies ProcessedImage
})
