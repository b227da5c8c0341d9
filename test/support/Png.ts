/**
 * Small RGB PNGs built with zlib alone (tests that must not depend on an image library): each call a
 * different colour, so each image has its own content hash.
 */
import { crc32, deflateSync } from "node:zlib"

const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, "ascii"), data])
  const framed = Buffer.alloc(body.length + 8)
  framed.writeUInt32BE(data.length, 0)
  body.copy(framed, 4)
  framed.writeUInt32BE(crc32(body), body.length + 4)
  return framed
}

let colour = 0

/** A `width`×`height` RGB PNG. */
export const png = (width = 16, height = width): Buffer => {
  colour += 1
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.of(0), Buffer.alloc(width * 3, colour % 256)])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk("IEND", Buffer.alloc(0))
  ])
}

export const dataUri = (bytes: Buffer, label = "image/png"): string =>
  `data:${label};base64,${bytes.toString("base64")}`
