/**
 * `@veche/media`'s ImageCodec with sharp (libvips): the header read through `metadata()` (nothing
 * decoded), and a fresh encode in the same type with no metadata kept. Untrusted input is held to
 * sharp's advice: any decoder warning refuses the image, and the decoder stops at a pixel limit
 * and a timeout.
 */
import { ImageCodec, type ImageFormat } from "@veche/media"
import { Effect, Layer } from "effect"
import type { Sharp } from "sharp"

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

const inspect = (bytes: Uint8Array): Effect.Effect<ImageCodec.ImageInfo, ImageCodec.UndecodableImage> =>
  Effect.flatMap(sharpModule, (sharp) =>
    Effect.tryPromise({
      // Reads the header only; nothing is decoded yet.
      try: () => sharp(bytes, { animated: true }).metadata(),
      catch: () => new ImageCodec.UndecodableImage()
    })
  ).pipe(
    Effect.map((metadata) => {
      const frames = Math.max(1, metadata.pages ?? 1)
      const frameHeight = metadata.pageHeight ?? metadata.height
      // Orientations 5-8 turn the image a quarter: its width is shown as height.
      const turned = (metadata.orientation ?? 1) >= 5
      return {
        format: metadata.format,
        width: turned ? frameHeight : metadata.width,
        height: turned ? metadata.width : frameHeight,
        frames
      }
    })
  )

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
  options: ImageCodec.ReencodeOptions
): Effect.Effect<Uint8Array, ImageCodec.UndecodableImage | ImageCodec.PixelLimitExceeded> =>
  Effect.flatMap(sharpModule, (sharp) =>
    Effect.tryPromise({
      try: () => {
        const pipeline = sharp(bytes, {
          animated: options.animated,
          limitInputPixels: options.maxTotalPixels,
          // sharp's advice for untrusted input: refuse anything the decoder warns about.
          failOn: "warning",
          // Turn photos upright before their EXIF (orientation included) is dropped.
          autoOrient: !options.animated
        }).timeout({ seconds: options.timeoutSeconds })
        // No keepMetadata/withMetadata: sharp writes no EXIF, XMP, IPTC or ICC then (colours are
        // converted to sRGB first).
        return encode(pipeline, format).toBuffer()
      },
      catch: (error) =>
        String(error).includes("pixel limit") ? new ImageCodec.PixelLimitExceeded() : new ImageCodec.UndecodableImage()
    })
  )

/** The codec; sharp itself is loaded at the first image. */
export const layer: Layer.Layer<ImageCodec.ImageCodec> = Layer.succeed(
  ImageCodec.ImageCodec,
  ImageCodec.ImageCodec.of({ inspect, reencode })
)
