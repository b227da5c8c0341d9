/** Reading the data export archives the route tests download. */
import { inflateRawSync } from "node:zlib"

/** The files of a ZIP made of stored or deflated entries (what fflate writes). */
export const unzip = (bytes: Uint8Array): Record<string, string> => {
  const buffer = Buffer.from(bytes)
  const files: Record<string, string> = {}
  let offset = 0
  while (buffer.readUInt32LE(offset) === 0x04034b50) {
    const method = buffer.readUInt16LE(offset + 8)
    const size = buffer.readUInt32LE(offset + 18)
    const nameLength = buffer.readUInt16LE(offset + 26)
    const extraLength = buffer.readUInt16LE(offset + 28)
    const name = buffer.subarray(offset + 30, offset + 30 + nameLength).toString("utf8")
    const start = offset + 30 + nameLength + extraLength
    const data = buffer.subarray(start, start + size)
    files[name] = (method === 8 ? inflateRawSync(data) : data).toString("utf8")
    offset = start + size
  }
  return files
}
