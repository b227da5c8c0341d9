import { createHash } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { ImageKind, ImageUpload } from "@veche/media"
import { Effect } from "effect"
import * as SharpImageCodec from "../src/SharpImageCodec.ts"
import * as TestImages from "./support/TestImages.ts"

const avatar = ImageKind.limits.avatars
const banner = ImageKind.limits["user-banners"]
const make = <A>(promise: () => Promise<A>) => Effect.promise(promise)
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

// ImageUpload's rules over the sharp codec: what a host running @veche/sharp gets.
const processBytes = (bytes: Uint8Array, limits: ImageKind.ImageLimits) =>
  ImageUpload.processBytes(bytes, limits).pipe(Effect.provide(SharpImageCodec.layer))

const processUri = (bytes: Uint8Array, label: string, limits = avatar) =>
  ImageUpload.process(TestImages.dataUri(bytes, label), limits).pipe(Effect.provide(SharpImageCodec.layer))

const rejection = (bytes: Uint8Array, label = "image/png", limits = avatar) =>
  processUri(bytes, label, limits).pipe(
    Effect.flip,
    Effect.map((error) => ({ reason: error.reason, code: error.code }))
  )

describe("ImageUpload: the type comes from the bytes", () => {
  it.effect("a PNG labelled as JPEG is processed and stored as PNG", () =>
    Effect.gen(function* () {
      const png = yield* make(() => TestImages.png(32, 32))
      const image = yield* processUri(png, "image/jpeg")
      expect(image.format).toBe("png")
      expect(image.contentType).toBe("image/png")
      expect(Buffer.from(image.bytes.subarray(0, 8)).equals(PNG_SIGNATURE)).toBe(true)
      expect((yield* make(() => TestImages.metadataOf(image.bytes))).format).toBe("png")
    })
  )

  it.effect("each accepted type comes out in the type it went in", () =>
    Effect.gen(function* () {
      const inputs = {
        png: yield* make(() => TestImages.png(20, 10)),
        jpeg: yield* make(() => TestImages.jpeg(20, 10)),
        gif: yield* make(() => TestImages.gif(20, 10)),
        webp: yield* make(() => TestImages.webp(20, 10))
      }
      for (const [format, bytes] of Object.entries(inputs)) {
        const image = yield* processUri(bytes, "image/png")
        const metadata = yield* make(() => TestImages.metadataOf(image.bytes))
        expect({ format: image.format, decoded: metadata.format, contentType: image.contentType }).toEqual({
          format,
          decoded: format,
          contentType: `image/${format}`
        })
        expect({ width: image.width, height: image.height, animated: image.animated }).toEqual({
          width: 20,
          height: 10,
          animated: false
        })
      }
    })
  )

  it.effect("bytes of no accepted type are refused as unsupported: garbage, HTML, SVG, BMP", () =>
    Effect.gen(function* () {
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'
      )
      const bmp = yield* make(() => TestImages.png(4, 4).then((png) => png))
      const notBmp = Buffer.concat([Buffer.from("BM"), bmp.subarray(2)])
      for (const bytes of [
        Buffer.from("definitely not an image, just some text bytes"),
        Buffer.from("<html><body><script>alert(1)</script></body></html>"),
        svg,
        notBmp,
        Buffer.from([0x00])
      ]) {
        expect(yield* rejection(bytes)).toEqual({ reason: "unsupported_type", code: "IMAGE_INVALID" })
      }
    })
  )

  it.effect("a known signature over other content, or a cut-off file, is refused as invalid", () =>
    Effect.gen(function* () {
      const png = yield* make(() => TestImages.png(64, 64))
      const jpeg = yield* make(() => TestImages.jpeg(64, 64))
      // PNG's signature, then a JPEG: the decoders disagree with the signature
      const pngOverJpeg = Buffer.concat([png.subarray(0, 8), jpeg])
      expect(yield* rejection(pngOverJpeg)).toEqual({ reason: "invalid", code: "IMAGE_INVALID" })
      expect(yield* rejection(png.subarray(0, png.length - 40))).toEqual({ reason: "invalid", code: "IMAGE_INVALID" })
      expect(yield* rejection(jpeg.subarray(0, Math.floor(jpeg.length / 2)))).toEqual({
        reason: "invalid",
        code: "IMAGE_INVALID"
      })
      expect(yield* rejection(png.subarray(0, 20))).toEqual({ reason: "invalid", code: "IMAGE_INVALID" })
    })
  )
})

describe("ImageUpload: polyglot files lose their second face", () => {
  it.effect("a GIF followed by HTML and script comes out as a GIF without them", () =>
    Effect.gen(function* () {
      const gif = yield* make(() => TestImages.gif(16, 16))
      const payload = "<html><script>alert(document.cookie)</script></html>"
      const polyglot = Buffer.concat([gif, Buffer.from(payload)])
      expect(TestImages.contains(polyglot, "<script>")).toBe(true)
      const image = yield* processUri(polyglot, "image/gif")
      expect(image.format).toBe("gif")
      expect(TestImages.contains(image.bytes, "<script>")).toBe(false)
      expect(TestImages.contains(image.bytes, "alert")).toBe(false)
    })
  )

  it.effect("a JPEG with a ZIP archive appended comes out without the archive", () =>
    Effect.gen(function* () {
      const jpeg = yield* make(() => TestImages.jpeg(32, 32))
      const archive = TestImages.zip("evil.html", "<script>steal()</script>")
      const polyglot = Buffer.concat([jpeg, archive])
      const image = yield* processUri(polyglot, "image/jpeg")
      expect(image.format).toBe("jpeg")
      expect(TestImages.contains(image.bytes, Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(false)
      expect(TestImages.contains(image.bytes, "evil.html")).toBe(false)
      expect(TestImages.contains(image.bytes, "steal()")).toBe(false)
    })
  )

  it.effect("a PNG with a private chunk and a payload after IEND keeps neither", () =>
    Effect.gen(function* () {
      const png = yield* make(() => TestImages.png(16, 16))
      const withChunk = TestImages.padPng(png, png.length + 200, "<?php system($_GET[1]); ?>")
      const polyglot = Buffer.concat([withChunk, Buffer.from("<script>alert(2)</script>")])
      const image = yield* processUri(polyglot, "image/png")
      expect(TestImages.contains(image.bytes, "<?php")).toBe(false)
      expect(TestImages.contains(image.bytes, "vaPd")).toBe(false)
      expect(TestImages.contains(image.bytes, "<script>")).toBe(false)
    })
  )

  it.effect("a GIF whose header is also JavaScript (GIF89a/*…*/=alert(1)) comes out as a plain GIF", () =>
    Effect.gen(function* () {
      const gif = yield* make(() => TestImages.gif(16, 16))
      // The classic GIF/JS polyglot: the screen-width bytes read "/*", the script comes after the image.
      const polyglot = Buffer.concat([Buffer.from("GIF89a/*"), gif.subarray(8), Buffer.from("*/=alert(1)//")])
      const image = yield* processUri(polyglot, "image/gif")
      expect(Buffer.from(image.bytes.subarray(0, 8)).toString("latin1")).not.toBe("GIF89a/*")
      expect(Buffer.from(image.bytes).readUInt16LE(6)).toBe(16)
      expect(TestImages.contains(image.bytes, "alert(1)")).toBe(false)
    })
  )
})

describe("ImageUpload: limits", () => {
  it.effect("size: an avatar of exactly 1 MiB passes, 1 MiB + 1 byte is too large", () =>
    Effect.gen(function* () {
      const png = yield* make(() => TestImages.png(64, 64))
      expect(avatar.maxBytes).toBe(1_048_576)
      const exact = TestImages.padPng(png, avatar.maxBytes)
      const image = yield* processUri(exact, "image/png")
      // the padding is gone: what is stored is far smaller than what was sent
      expect(image.bytes.length).toBeLessThan(64 * 1024)
      const over = TestImages.padPng(png, avatar.maxBytes + 1)
      const error = yield* processUri(over, "image/png").pipe(Effect.flip)
      expect({ reason: error.reason, code: error.code, message: error.message }).toEqual({
        reason: "too_large",
        code: "BINARY_TYPE_MAX_SIZE",
        message: "File cannot be larger than 1024.0 kb."
      })
    })
  )

  it.effect("size: a banner of exactly 3 MiB passes, 3 MiB + 1 byte is too large", () =>
    Effect.gen(function* () {
      const png = yield* make(() => TestImages.png(64, 64))
      expect(banner.maxBytes).toBe(3 * 1_048_576)
      yield* processUri(TestImages.padPng(png, banner.maxBytes), "image/png", banner)
      expect(yield* rejection(TestImages.padPng(png, banner.maxBytes + 1), "image/png", banner)).toEqual({
        reason: "too_large",
        code: "BINARY_TYPE_MAX_SIZE"
      })
    })
  )

  it.effect("dimensions: an avatar of 1024×1024 passes; 1024×1025 and 1025×1024 are refused", () =>
    Effect.gen(function* () {
      const square = yield* processUri(yield* make(() => TestImages.png(1024, 1024)), "image/png")
      expect({ width: square.width, height: square.height }).toEqual({ width: 1024, height: 1024 })
      const tall = yield* processUri(yield* make(() => TestImages.png(1024, 1025)), "image/png").pipe(Effect.flip)
      expect({ reason: tall.reason, code: tall.code, message: tall.message }).toEqual({
        reason: "dimensions_too_large",
        code: "IMAGE_DIMENSIONS_TOO_LARGE",
        message: "Image cannot be larger than 1024x1024 pixels."
      })
      expect((yield* rejection(yield* make(() => TestImages.png(1025, 1024)))).reason).toBe("dimensions_too_large")
    })
  )

  it.effect("dimensions: a banner of 2048×2048 passes; 2048×2049 is refused", () =>
    Effect.gen(function* () {
      const image = yield* processUri(yield* make(() => TestImages.jpeg(2048, 2048)), "image/jpeg", banner)
      expect({ width: image.width, height: image.height }).toEqual({ width: 2048, height: 2048 })
      expect((yield* rejection(yield* make(() => TestImages.jpeg(2048, 2049)), "image/jpeg", banner)).reason).toBe(
        "dimensions_too_large"
      )
    })
  )

  it.effect("animations: too many pixels over all frames, or too many frames, are refused", () =>
    Effect.gen(function* () {
      const gif = yield* make(() => TestImages.animated("gif", 32, 32, 4))
      const roomy: ImageKind.ImageLimits = { ...avatar, maxTotalPixels: 32 * 32 * 4, maxFrames: 4 }
      expect((yield* processBytes(gif, roomy)).frames).toBe(4)
      const fewPixels = yield* processBytes(gif, { ...roomy, maxTotalPixels: 32 * 32 * 4 - 1 }).pipe(Effect.flip)
      expect(fewPixels.reason).toBe("dimensions_too_large")
      const fewFrames = yield* processBytes(gif, { ...roomy, maxFrames: 3 }).pipe(Effect.flip)
      expect(fewFrames.reason).toBe("dimensions_too_large")
    })
  )
})

describe("ImageUpload: what survives re-encoding", () => {
  it.effect("an animated GIF keeps all its frames, their timing and the loop, and its hash says animated", () =>
    Effect.gen(function* () {
      const gif = yield* make(() => TestImages.animated("gif", 24, 24, 5))
      const image = yield* processUri(gif, "image/gif")
      expect({ format: image.format, frames: image.frames, animated: image.animated }).toEqual({
        format: "gif",
        frames: 5,
        animated: true
      })
      const metadata = yield* make(() => TestImages.metadataOf(image.bytes))
      expect(metadata.pages).toBe(5)
      expect(metadata.pageHeight).toBe(24)
      expect(metadata.delay).toEqual([100, 100, 100, 100, 100])
      expect(metadata.loop).toBe(0)
      expect(image.hash).toMatch(/^a_[0-9a-f]{32}$/)
    })
  )

  it.effect("an animated WebP stays an animated WebP", () =>
    Effect.gen(function* () {
      const webp = yield* make(() => TestImages.animated("webp", 24, 24, 3))
      const image = yield* processUri(webp, "image/webp")
      const metadata = yield* make(() => TestImages.metadataOf(image.bytes))
      expect({ format: metadata.format, pages: metadata.pages }).toEqual({ format: "webp", pages: 3 })
      expect(image.hash.startsWith("a_")).toBe(true)
    })
  )

  it.effect("first_frame: an animated GIF or WebP is kept as its first frame, still, without the a_ prefix", () =>
    Effect.gen(function* () {
      for (const format of ["gif", "webp"] as const) {
        const animation = yield* make(() => TestImages.animated(format, 24, 24, 4))
        const image = yield* ImageUpload.process(TestImages.dataUri(animation, `image/${format}`), avatar, {
          animation: "first_frame"
        }).pipe(Effect.provide(SharpImageCodec.layer))
        expect({ format: image.format, frames: image.frames, animated: image.animated }).toEqual({
          format,
          frames: 1,
          animated: false
        })
        const metadata = yield* make(() => TestImages.metadataOf(image.bytes))
        expect({ format: metadata.format, pages: metadata.pages ?? 1 }).toEqual({ format, pages: 1 })
        expect(image.hash).toMatch(/^[0-9a-f]{32}$/)
      }
    })
  )

  it.effect("EXIF is stripped (text fields gone), after the photo is turned upright", () =>
    Effect.gen(function* () {
      const jpeg = yield* make(() =>
        TestImages.jpegWithExif(40, 20, { Copyright: "Jane Secret", ImageDescription: "home 55.7558N 37.6173E" }, 6)
      )
      const before = yield* make(() => TestImages.metadataOf(jpeg))
      expect(before.exif).toBeDefined()
      expect(TestImages.contains(jpeg, "Jane Secret")).toBe(true)
      const image = yield* processUri(jpeg, "image/jpeg")
      const after = yield* make(() => TestImages.metadataOf(image.bytes))
      expect(after.exif).toBeUndefined()
      expect(after.xmp).toBeUndefined()
      expect(after.icc).toBeUndefined()
      expect(TestImages.contains(image.bytes, "Jane Secret")).toBe(false)
      expect(TestImages.contains(image.bytes, "55.7558N")).toBe(false)
      // orientation 6 turned the 40×20 photo upright: 20×40
      expect({ width: after.width, height: after.height }).toEqual({ width: 20, height: 40 })
      expect({ width: image.width, height: image.height }).toEqual({ width: 20, height: 40 })
    })
  )

  it.effect("the hash is 32 hex digits of the stored bytes' SHA-256: same image, same hash; new image, new hash", () =>
    Effect.gen(function* () {
      const first = yield* processUri(yield* make(() => TestImages.png(16, 16, 1)), "image/png")
      const again = yield* processUri(yield* make(() => TestImages.png(16, 16, 1)), "image/png")
      const other = yield* processUri(yield* make(() => TestImages.png(16, 16, 2)), "image/png")
      expect(first.hash).toMatch(/^[0-9a-f]{32}$/)
      expect(first.hash).toBe(createHash("sha256").update(first.bytes).digest("hex").slice(0, 32))
      expect(again.hash).toBe(first.hash)
      expect(other.hash).not.toBe(first.hash)
    })
  )
})
