/**
 * A dispatch as the bytes of one WebSocket frame (RFC 6455: a final, unmasked text frame, as a
 * server sends it), built once and written as is to every socket whose session numbers it the same.
 *
 * Why: in a fan-out the host's own send (`ws`) turns each session's text into UTF-8 again, builds a
 * frame header and writes header and payload as two chunks (a corked `writev`), per socket. Here the
 * payload is encoded once per dispatch, and the whole frame once per sequence number (sessions of a
 * guild that identified together share theirs), so a socket's write is one ready Buffer.
 *
 * Only the dispatch being fanned out is kept (one entry): deliveries of a dispatch go out in one
 * synchronous loop, and the replay rings keep the shared text (`Frames.DispatchText`), not bytes.
 */
import type * as Frames from "./Frames.ts"

/** FIN and the text opcode. */
const FINAL_TEXT = 0x81

/** The frame header's length for a payload of `length` bytes (7-bit, 16-bit or 64-bit length). */
const headerLength = (length: number): number => (length < 126 ? 2 : length < 65536 ? 4 : 10)

/** Writes the header of an unmasked final text frame of `length` payload bytes at the start of `frame`. */
const writeHeader = (frame: Buffer, length: number): void => {
  frame[0] = FINAL_TEXT
  if (length < 126) {
    frame[1] = length
  } else if (length < 65536) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    // 64-bit length: the top two bytes are zero for any Buffer (at most 2^48 - 1 here)
    frame[2] = 0
    frame[3] = 0
    frame.writeUIntBE(length, 4, 6)
  }
}

interface Current {
  readonly parts: Frames.DispatchText
  /** `parts.head` and `parts.tail` as UTF-8, once per dispatch. */
  readonly head: Buffer
  readonly tail: Buffer
  /** The last frame built and the sequence number it carries. */
  seq: number
  frame: Buffer | undefined
}

let current: Current | undefined

/**
 * The frame of dispatch `parts` numbered `seq`: `Frames.dispatchText(parts, seq)` as a text frame.
 * The same Buffer for consecutive calls with the same dispatch and number; never to be written to.
 */
export const dispatchFrame = (parts: Frames.DispatchText, seq: number): Buffer => {
  let at = current
  if (at === undefined || at.parts !== parts) {
    at = { parts, head: Buffer.from(parts.head), tail: Buffer.from(parts.tail), seq: 0, frame: undefined }
    current = at
  }
  if (at.frame !== undefined && at.seq === seq) return at.frame
  const digits = String(seq)
  const length = at.head.length + digits.length + at.tail.length
  const offset = headerLength(length)
  const frame = Buffer.allocUnsafe(offset + length)
  writeHeader(frame, length)
  at.head.copy(frame, offset)
  // the sequence number's digits are ASCII: one byte each
  const digitsAt = offset + at.head.length
  frame.write(digits, digitsAt, "latin1")
  at.tail.copy(frame, digitsAt + digits.length)
  at.seq = seq
  at.frame = frame
  return frame
}
