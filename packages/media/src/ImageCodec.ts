/**
 * The image codec port: what `ImageUpload` needs from an image library — read a header without
 * decoding pixels, and decode then encode anew. The rules (which types are accepted, read from the
 * bytes; the limits; what a refusal answers) stay in `ImageUpload`; the library (sharp/libvips in
 * `@veche/sharp`) is chosen by the host.
 */
import { Context, type Effect, Schema } from "effect"
import type * as ImageFormat from "./ImageFormat.ts"

/** What a header says, read without decoding any pixel. */
export interface ImageInfo {
  /** The type the decoder reads the bytes as (its own name: not necessarily one of the four). */
  readonly format: string
  /** As the image will be shown: an orientation that turns it a quarter swaps width and height. */
  readonly width: number
  /** Of one frame, as shown. */
  readonly height: number
  /** 1 for a still image. */
  readonly frames: number
}

export interface ReencodeOptions {
  /** Keep every frame (and their timing); a still image is turned upright by its orientation instead. */
  readonly animated: boolean
  /** The decoder refuses (`PixelLimitExceeded`) beyond this many pixels, should the header have lied. */
  readonly maxTotalPixels: number
  /** A decode that takes longer is abandoned (`UndecodableImage`). */
  readonly timeoutSeconds: number
}

/** The bytes do not decode (truncated, corrupt, crafted, a decoder warning, or too slow). */
export class UndecodableImage extends Schema.TaggedError<UndecodableImage>()("UndecodableImage", {}) {}

/** The decoder met more pixels than `maxTotalPixels` allowed. */
export class PixelLimitExceeded extends Schema.TaggedError<PixelLimitExceeded>()("PixelLimitExceeded", {}) {}

export class ImageCodec extends Context.Service<
  ImageCodec,
  {
    /** The header only; nothing is decoded yet. */
    readonly inspect: (bytes: Uint8Array) => Effect.Effect<ImageInfo, UndecodableImage>
    /**
     * Decodes and encodes anew in `format`. Only pixels (and an animation's frame timing) survive:
     * no EXIF, XMP, IPTC, ICC profile, comment or trailing bytes reach the output.
     */
    readonly reencode: (
      bytes: Uint8Array,
      format: ImageFormat.ImageFormat,
      options: ReencodeOptions
    ) => Effect.Effect<Uint8Array, UndecodableImage | PixelLimitExceeded>
  }
>()("@veche/media/ImageCodec") {}
