/**
 * Reads the `data:image/...;base64,...` text that image fields carry. The label after `data:` is
 * only checked to be an image type: the bytes decide the real type later. The size limit is
 * checked on the decoded length, computed from the text's length before anything is decoded, so
 * an oversized upload costs no allocation.
 */
import { Effect } from "effect"
import { ImageRejected } from "./MediaErrors.ts"

// A media type of `image/<subtype>`, optional parameters, then `;base64,`.
const PREFIX = /^data:image\/[a-z0-9.+-]+(?:;[a-z0-9_-]+=[^;,]*)*;base64,/i
// The longest prefix worth matching: keeps the regex off a megabyte of payload.
const MAX_PREFIX = 256
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Decoded length of standard base64 text (padded or not). */
const decodedLength = (payload: string): number => {
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0
  return Math.floor(((payload.length - padding) * 3) / 4)
}

/** The bytes of an image data URI, at most `maxBytes` of them. */
export const decode = (text: string, maxBytes: number): Effect.Effect<Uint8Array, ImageRejected> =>
  Effect.suspend(() => {
    const prefix = PREFIX.exec(text.slice(0, MAX_PREFIX))
    if (prefix === null) return Effect.fail(ImageRejected.notDataUri())
    const payload = text.slice(prefix[0].length)
    if (decodedLength(payload) > maxBytes) return Effect.fail(ImageRejected.tooLarge(maxBytes))
    // Buffer's decoder skips characters it does not know; a strict check first, so that text
    // with stray characters is refused rather than silently read as other bytes.
    if (payload.length === 0 || payload.length % 4 === 1 || !BASE64.test(payload)) {
      return Effect.fail(ImageRejected.notDataUri())
    }
    return Effect.succeed(Buffer.from(payload, "base64"))
  })
