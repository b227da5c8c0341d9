import { describe, expect, it } from "@effect/vitest"
import { ZipWriter } from "@veche/privacy"
import { Effect } from "effect"
import { unzipSync } from "fflate"
import * as FflateZipWriter from "../src/FflateZipWriter.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)

describe("FflateZipWriter", () => {
  it.effect("packs the entries, in their order, into a ZIP that unzips to the same bytes", () =>
    Effect.gen(function* () {
      const writer = yield* ZipWriter.ZipWriter
      const bytes = yield* writer.zip([
        { name: "README.txt", bytes: utf8("hello\n") },
        { name: "account.json", bytes: utf8(`${JSON.stringify({ id: "1", name: "Ünïcode" }, null, 2)}\n`) },
        { name: "empty.json", bytes: new Uint8Array() }
      ])
      // The local file header's signature: a standard archive.
      expect(Array.from(bytes.subarray(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04])
      const files = unzipSync(bytes)
      expect(Object.keys(files)).toEqual(["README.txt", "account.json", "empty.json"])
      expect(new TextDecoder().decode(files["account.json"])).toContain("Ünïcode")
      expect(files["empty.json"]?.length).toBe(0)
    }).pipe(Effect.provide(FflateZipWriter.layer))
  )
})
