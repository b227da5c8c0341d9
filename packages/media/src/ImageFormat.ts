/**
 * The four image types accepted anywhere (PNG, JPEG, GIF, WebP), told apart by their first bytes
 * only: a data URI's label or a file name is a claim, the signature is what a decoder will read.
 */
import { Option } from "effect"

export const FORMATS = ["png", "jpeg", "gif", "webp"] as const
export type ImageFormat = (typeof FORMATS)[number]

export const contentType = (format: ImageFormat): string => `image/${format}`

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte)

const ascii = (text: string): ReadonlyArray<number> => Array.from(text, (char) => char.charCodeAt(0))

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
// SOI followed by the first marker's 0xFF: every JPEG variant (JFIF, Exif, raw) starts so.
const JPEG = [0xff, 0xd8, 0xff]
const GIF87 = ascii("GIF87a")
const GIF89 = ascii("GIF89a")
const RIFF = ascii("RIFF")
const WEBP = ascii("WEBP")

/** The type the bytes begin as, if it is one of the four. */
export const detect = (bytes: Uint8Array): Option.Option<ImageFormat> => {
  if (startsWith(bytes, PNG)) return Option.some("png")
  if (startsWith(bytes, JPEG)) return Option.some("jpeg")
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return Option.some("gif")
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return Option.some("webp")
  return Option.none()
}
