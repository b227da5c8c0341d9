import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import * as FsMediaStorage from "../src/FsMediaStorage.ts"
import { MediaStorage } from "../src/MediaStorage.ts"
import { mediaStorageContract } from "./contracts/MediaStorageContract.ts"

/** A fresh folder for the scope, removed after. */
const temporaryFolder = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "veche-media-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

/** Every file under `folder`, as paths relative to it. */
const filesUnder = (folder: string) =>
  Effect.promise(() => readdir(folder, { recursive: true, withFileTypes: true })).pipe(
    Effect.map((entries) =>
      entries
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
        .sort()
    )
  )

describe("FsMediaStorage", () => {
  layer(Layer.effect(MediaStorage, Effect.map(temporaryFolder, FsMediaStorage.make)))("contract", (it) =>
    mediaStorageContract(it)
  )

  it.effect("an object is one file at its key under the root, and no temporary file is left", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const storage = FsMediaStorage.make(join(folder, "media"))
      yield* storage.put(
        "avatars/175928847299117063/0123456789abcdef0123456789abcdef",
        Uint8Array.of(1, 2),
        "image/png"
      )
      expect(yield* filesUnder(folder)).toEqual(["media/avatars/175928847299117063/0123456789abcdef0123456789abcdef"])
      const file = yield* Effect.promise(() =>
        readFile(join(folder, "media/avatars/175928847299117063/0123456789abcdef0123456789abcdef"))
      )
      expect(Array.from(file)).toEqual([...Buffer.from("image/png\n"), 1, 2])
    })
  )

  it.effect("keys that try to leave the root write nothing anywhere", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const storage = FsMediaStorage.make(join(folder, "root"))
      for (const key of ["../outside", "avatars/../../outside", "/tmp/outside", "..", "."]) {
        yield* Effect.exit(storage.put(key, Uint8Array.of(1), "image/png"))
      }
      expect(yield* filesUnder(folder)).toEqual([])
    })
  )

  it.effect("concurrent puts of one key leave one whole object and no temporary files", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const storage = FsMediaStorage.make(folder)
      const key = "banners/1/0123456789abcdef0123456789abcdef"
      const versions = Array.from({ length: 8 }, (_, i) => new Uint8Array(200_000).fill(i))
      yield* Effect.forEach(versions, (bytes) => storage.put(key, bytes, "image/webp"), { concurrency: "unbounded" })
      expect(yield* filesUnder(folder)).toEqual([key])
      const object = Option.getOrThrow(yield* storage.get(key))
      expect(object.bytes.length).toBe(200_000)
      expect(new Set(object.bytes).size).toBe(1)
    })
  )

  it.effect("a root that cannot hold folders answers StorageUnavailable, naming only the error code", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const notAFolder = join(folder, "file")
      yield* Effect.promise(() => writeFile(notAFolder, "x"))
      const storage = FsMediaStorage.make(notAFolder)
      const error = yield* storage.put("avatars/1/abc", Uint8Array.of(1), "image/png").pipe(Effect.flip)
      expect(error._tag).toBe("StorageUnavailable")
      expect(error._tag === "StorageUnavailable" ? error.reason : "").toMatch(/^filesystem write failed \(E[A-Z]+\)$/)
      // nothing can be below a file: not found rather than an error
      expect(Option.isNone(yield* storage.get("avatars/1/abc"))).toBe(true)
    })
  )

  it.effect("a file that is not an object of ours answers StorageUnavailable", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      yield* Effect.promise(() => writeFile(join(folder, "stray"), Buffer.alloc(1000, 0)))
      const error = yield* FsMediaStorage.make(folder).get("stray").pipe(Effect.flip)
      expect(error.reason).toBe("filesystem object is not in the expected format")
    })
  )
})
