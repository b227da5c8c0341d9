import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DataUri from "../src/DataUri.ts"

const MAX = 12

describe("DataUri.decode", () => {
  it.effect("reads the base64 payload of an image data URI, whatever image label it has", () =>
    Effect.gen(function* () {
      const payload = Buffer.from("hello image").toString("base64")
      for (const label of ["image/png", "image/jpeg", "image/x-anything", "IMAGE/GIF"]) {
        const bytes = yield* DataUri.decode(`data:${label};base64,${payload}`, MAX)
        expect(Buffer.from(bytes).toString()).toBe("hello image")
      }
      // media-type parameters are allowed before ;base64
      const withParameter = yield* DataUri.decode(`data:image/png;name=a.png;base64,${payload}`, MAX)
      expect(Buffer.from(withParameter).toString()).toBe("hello image")
    })
  )

  it.effect("accepts unpadded base64", () =>
    Effect.gen(function* () {
      const bytes = yield* DataUri.decode("data:image/png;base64,YWI", MAX)
      expect(Buffer.from(bytes).toString()).toBe("ab")
    })
  )

  it.effect("refuses anything that is not a base64 image data URI", () =>
    Effect.gen(function* () {
      for (const text of [
        "",
        "https://example.test/a.png",
        "iVBORw0KGgo=",
        "data:text/html;base64,PGgxPg==",
        "data:;base64,YWJj",
        "data:image/png,rawtext",
        "data:image/png;base64,",
        "data:image/png;base64,YW@j",
        "data:image/png;base64,YW Jj",
        "data:image/png;base64,YWJjZ",
        " data:image/png;base64,YWJj"
      ]) {
        const error = yield* DataUri.decode(text, MAX).pipe(Effect.flip)
        expect({ text, reason: error.reason, code: error.code }).toEqual({
          text,
          reason: "not_data_uri",
          code: "IMAGE_INVALID"
        })
      }
    })
  )

  it.effect("the limit is on decoded bytes: exactly the limit passes, one more byte is too large", () =>
    Effect.gen(function* () {
      const exact = Buffer.alloc(MAX, 7).toString("base64")
      expect((yield* DataUri.decode(`data:image/png;base64,${exact}`, MAX)).length).toBe(MAX)
      const over = Buffer.alloc(MAX + 1, 7).toString("base64")
      const error = yield* DataUri.decode(`data:image/png;base64,${over}`, MAX).pipe(Effect.flip)
      expect(error.reason).toBe("too_large")
      expect(error.code).toBe("BINARY_TYPE_MAX_SIZE")
    })
  )

  it.effect("an oversized payload is refused as too large before its characters are looked at", () =>
    Effect.gen(function* () {
      const error = yield* DataUri.decode(`data:image/png;base64,${"@".repeat(1000)}`, MAX).pipe(Effect.flip)
      expect(error.reason).toBe("too_large")
    })
  )
})
