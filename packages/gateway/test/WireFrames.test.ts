/**
 * Dispatch frames built as bytes (WireFrames): what a `ws` client decodes from them is the text a
 * plain `ws.send` of the dispatch delivers, at every length encoding (7-bit, 16-bit, 64-bit) and
 * with multi-byte characters (the length counts bytes, not characters).
 */

import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { WebSocket, WebSocketServer } from "ws"
import * as Frames from "../src/Frames.ts"
import * as WireFrames from "../src/WireFrames.ts"

/** A `ws` server and one client: `exchange` writes each frame both ways and returns what the client got. */
const pair = async () => {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" })
  await new Promise<void>((resolve) => server.once("listening", () => resolve()))
  const accepted = new Promise<{ socket: WebSocket; raw: { write: (chunk: Uint8Array) => boolean } }>((resolve) =>
    server.once("connection", (socket, request) => resolve({ socket, raw: request.socket }))
  )
  const port = (server.address() as AddressInfo).port
  const client = new WebSocket(`ws://127.0.0.1:${port}`)
  const received: Array<string> = []
  let wake: (() => void) | undefined
  client.on("message", (data, binary) => {
    received.push(`${binary ? "binary" : "text"}:${String(data)}`)
    wake?.()
  })
  const { socket, raw } = await accepted
  /** Sends `text` through `ws.send`, then `frame` as raw bytes; both as the client received them. */
  const exchange = async (text: string, frame: Uint8Array): Promise<[string | undefined, string | undefined]> => {
    received.length = 0
    const both = new Promise<void>((resolve) => {
      wake = () => {
        if (received.length === 2) resolve()
      }
    })
    socket.send(text)
    raw.write(frame)
    await both
    return [received[0], received[1]]
  }
  const close = async () => {
    client.terminate()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return { exchange, close }
}

const typing = (padding: string) =>
  Frames.dispatchParts("TYPING_START", JSON.stringify({ channel_id: "1", user_id: "2", note: padding }))

describe("dispatch frames", () => {
  it("decode to the text ws.send delivers, for small, 16-bit and 64-bit lengths", async () => {
    const { exchange, close } = await pair()
    try {
      // around each length boundary (125/126 and 65535/65536 payload bytes), and multi-byte text
      const paddings = [
        "",
        "x".repeat(60),
        "é".repeat(40),
        "x".repeat(200),
        "жук🙂".repeat(300),
        "x".repeat(65_600),
        "ü".repeat(40_000)
      ]
      for (const padding of paddings) {
        const parts = typing(padding)
        for (const seq of [1, 9, 10, 12_345]) {
          const text = Frames.dispatchText(parts, seq)
          const [sent, framed] = await exchange(text, WireFrames.dispatchFrame(parts, seq))
          expect(sent).toBe(`text:${text}`)
          expect(framed).toBe(sent)
        }
      }
      // the exact edges of the length encodings
      const head = Frames.dispatchText(typing(""), 7).length
      for (const length of [125, 126, 65_535, 65_536]) {
        const parts = typing("y".repeat(length - head))
        const frame = WireFrames.dispatchFrame(parts, 7)
        const text = Frames.dispatchText(parts, 7)
        expect(Buffer.byteLength(text)).toBe(length)
        expect(frame[1]).toBe(length < 126 ? length : length < 65536 ? 126 : 127)
        const [sent, framed] = await exchange(text, frame)
        expect(framed).toBe(sent)
      }
    } finally {
      await close()
    }
  })

  it("is one Buffer for every session numbering a dispatch alike, another for another number", () => {
    const parts = typing("shared")
    const first = WireFrames.dispatchFrame(parts, 3)
    expect(WireFrames.dispatchFrame(parts, 3)).toBe(first)
    const other = WireFrames.dispatchFrame(parts, 4)
    expect(other).not.toBe(first)
    expect(other.subarray(2).toString()).toBe(Frames.dispatchText(parts, 4))
    // another dispatch between two of the same: still its own bytes
    WireFrames.dispatchFrame(typing("other"), 4)
    expect(WireFrames.dispatchFrame(parts, 4).subarray(2).toString()).toBe(Frames.dispatchText(parts, 4))
  })
})
