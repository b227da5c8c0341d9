/**
 * Test images made on the spot with sharp (raw pixels → encoder), never fixture files: sizes,
 * frame counts and metadata are exactly what each test asks for. Plus the byte-level tricks the
 * tests need: a PNG padded to an exact size, trailing payloads, a tiny ZIP archive.
 */
import { crc32 } from "node:zlib"
import sharp, { type Sharp } from "sharp"

/** Pixels that differ from each other (a solid colour would compress to nothing and hide bugs). */
const pattern = (width: number, height: number, seed = 0): Buffer => {
  const pixels = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) {
    pixels[i * 3] = (i * 7 + seed * 40) & 0xff
    pixels[i * 3 + 1] = (Math.floor(i / width) * 5 + seed) & 0xff
    pixels[i * 3 + 2] = (seed * 91) & 0xff
  }
  return pixels
}

const raw = (width: number, height: number, seed = 0): Sharp =>
  sharp(pattern(width, height, seed), { raw: { width, height, channels: 3 } })

export const png = (width: number, height: number, seed = 0): Promise<Buffer> =>
  raw(width, height, seed).png().toBuffer()
export const jpeg = (width: number, height: number, seed = 0): Promise<Buffer> =>
  raw(width, height, seed).jpeg().toBuffer()
export const webp = (width: number, height: number, seed = 0): Promise<Buffer> =>
  raw(width, height, seed).webp().toBuffer()
export const gif = (width: number, height: number, seed = 0): Promise<Buffer> =>
  raw(width, height, seed).gif().toBuffer()

/** A JPEG carrying EXIF text fields and an orientation (6: shown turned a quarter clockwise). */
export const jpegWithExif = (width: number, height: number, fields: Record<string, string>, orientation = 1) =>
  raw(width, height)
    .jpeg()
    // sharp writes the orientation tag from its own field, over any given in the EXIF
    .withMetadata({ orientation })
    .withExifMerge({ IFD0: fields })
    .toBuffer()

/** An animation of `frames` frames of `width`×`height`, each different, 100 ms apart. */
export const animated = (format: "gif" | "webp", width: number, height: number, frames: number): Promise<Buffer> => {
  const strip = Buffer.concat(Array.from({ length: frames }, (_, frame) => pattern(width, height, frame + 1)))
  const pipeline = sharp(strip, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
  const delay = Array.from({ length: frames }, () => 100)
  return (format === "gif" ? pipeline.gif({ delay, loop: 0 }) : pipeline.webp({ delay, loop: 0 })).toBuffer()
}

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * The PNG grown to exactly `size` bytes by a private ancillary chunk (`vaPd`) before IEND: still a
 * valid PNG, which decoders read past. The padding is `fill` repeated.
 */
export const padPng = (image: Buffer, size: number, fill = "PADDING!"): Buffer => {
  const iend = image.length - 12
  const dataLength = size - image.length - 12
  if (dataLength < 0) throw new Error(`padPng: ${image.length} bytes is already more than ${size} - 12`)
  const data = Buffer.alloc(dataLength, fill)
  const padded = Buffer.concat([image.subarray(0, iend), chunk("vaPd", data), image.subarray(iend)])
  if (padded.length !== size) throw new Error("padPng: wrong size")
  return padded
}

/** A ZIP archive holding one stored (uncompressed) file: the payload of a JPEG+ZIP polyglot. */
export const zip = (name: string, content: string): Buffer => {
  const fileName = Buffer.from(name, "utf8")
  const data = Buffer.from(content, "utf8")
  const crc = crc32(data)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt32LE(crc, 14)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(data.length, 22)
  local.writeUInt16LE(fileName.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt32LE(crc, 16)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(data.length, 24)
  central.writeUInt16LE(fileName.length, 28)
  const localPart = Buffer.concat([local, fileName, data])
  const centralPart = Buffer.concat([central, fileName])
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(centralPart.length, 12)
  end.writeUInt32LE(localPart.length, 16)
  return Buffer.concat([localPart, centralPart, end])
}

export const dataUri = (bytes: Uint8Array, label = "image/png"): string =>
  `data:${label};base64,${Buffer.from(bytes).toString("base64")}`

export const contains = (haystack: Uint8Array, needle: string | Uint8Array): boolean =>
  Buffer.from(haystack).includes(typeof needle === "string" ? Buffer.from(needle, "latin1") : Buffer.from(needle))

export const metadataOf = (bytes: Uint8Array) => sharp(bytes, { animated: true }).metadata()
