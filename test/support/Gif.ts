/**
 * Small animated GIFs built by hand (tests that must not depend on an image library): `frames`
 * frames of `size`×`size`, each one colour of a four-colour palette, 100 ms apart, looping. The
 * pixels are written "uncompressed" (a clear code before each one keeps LZW codes at 3 bits).
 */

const PALETTE = [0xff, 0x00, 0x00, 0x00, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff]

/** LZW codes, least significant bit first, packed into bytes. */
const packCodes = (codes: ReadonlyArray<number>, bits: number): Array<number> => {
  const bytes: Array<number> = []
  let buffer = 0
  let filled = 0
  for (const code of codes) {
    buffer |= code << filled
    filled += bits
    while (filled >= 8) {
      bytes.push(buffer & 0xff)
      buffer >>= 8
      filled -= 8
    }
  }
  if (filled > 0) bytes.push(buffer & 0xff)
  return bytes
}

/** Data sub-blocks of at most 255 bytes, then the terminator. */
const subBlocks = (data: ReadonlyArray<number>): Array<number> => {
  const out: Array<number> = []
  for (let i = 0; i < data.length; i += 255) {
    const block = data.slice(i, i + 255)
    out.push(block.length, ...block)
  }
  out.push(0)
  return out
}

const u16 = (n: number) => [n & 0xff, (n >> 8) & 0xff]

export const animatedGif = (size = 8, frames = 3): Buffer => {
  const CLEAR = 4
  const END = 5
  const bytes: Array<number> = [
    ...Buffer.from("GIF89a", "ascii"),
    ...u16(size),
    ...u16(size),
    0xf1, // global colour table of 4 entries
    0,
    0,
    ...PALETTE,
    // NETSCAPE2.0: loop forever
    0x21,
    0xff,
    11,
    ...Buffer.from("NETSCAPE2.0", "ascii"),
    3,
    1,
    0,
    0,
    0
  ]
  for (let frame = 0; frame < frames; frame++) {
    const codes: Array<number> = []
    for (let pixel = 0; pixel < size * size; pixel++) codes.push(CLEAR, frame % 4)
    codes.push(END)
    bytes.push(0x21, 0xf9, 4, 0x04, ...u16(10), 0, 0) // graphic control: 100 ms, do not dispose
    bytes.push(0x2c, ...u16(0), ...u16(0), ...u16(size), ...u16(size), 0)
    bytes.push(2, ...subBlocks(packCodes(codes, 3)))
  }
  bytes.push(0x3b)
  return Buffer.from(bytes)
}

/** The frames of a GIF, counted by walking its blocks (image descriptors). */
export const gifFrames = (gif: Uint8Array): number => {
  const skipSubBlocks = (at: number): number => {
    let i = at
    while ((gif[i] ?? 0) !== 0) i += (gif[i] ?? 0) + 1
    return i + 1
  }
  const colourTable = (flags: number) => ((flags & 0x80) === 0 ? 0 : 3 * 2 ** ((flags & 0x07) + 1))
  let i = 13 + colourTable(gif[10] ?? 0)
  let frames = 0
  while (i < gif.length) {
    const block = gif[i]
    if (block === 0x3b) break
    if (block === 0x21) i = skipSubBlocks(i + 2)
    else if (block === 0x2c) {
      frames += 1
      i = skipSubBlocks(i + 10 + colourTable(gif[i + 9] ?? 0) + 1)
    } else throw new Error(`gifFrames: unexpected block ${block} at ${i}`)
  }
  return frames
}
