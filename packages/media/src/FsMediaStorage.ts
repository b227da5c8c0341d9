/**
 * `MediaStorage` in a folder: each key is a file under the root (`avatars/<id>/<hash>`). A file
 * holds its content type on a first line, then the bytes, so an object is one file and is written
 * in one step: to a temporary file beside it, flushed, then renamed over the final name. A reader
 * sees the whole object or none, whatever crashes mid-write; a crash leaves at most a temporary
 * file (named `.…tmp`, which no key can name).
 */
import { randomUUID } from "node:crypto"
import { mkdir, open, readFile, rename, rm } from "node:fs/promises"
import { dirname, join, resolve, sep } from "node:path"
import { Effect, Layer, Option } from "effect"
import { StorageUnavailable } from "./MediaErrors.ts"
import * as MediaKey from "./MediaKey.ts"
import { MediaStorage, type StoredObject } from "./MediaStorage.ts"

const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i
// Longer than any content type we write; a file without a line break this early is not ours.
const MAX_HEADER = 256
const NEWLINE = 0x0a

/** The Node error code (`ENOENT`, `ENOSPC`…), safe to log: no path, no content. */
const codeOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : "unknown error"

const isMissing = (error: unknown): boolean => {
  const code = codeOf(error)
  // ENOTDIR: a path segment is a file; nothing can be stored below it, so nothing is there.
  return code === "ENOENT" || code === "ENOTDIR"
}

const encodeObject = (bytes: Uint8Array, contentType: string): Uint8Array =>
  Buffer.concat([Buffer.from(`${contentType}\n`, "ascii"), bytes])

const decodeObject = (file: Buffer): StoredObject | undefined => {
  const end = file.subarray(0, MAX_HEADER).indexOf(NEWLINE)
  if (end < 0) return undefined
  const contentType = file.subarray(0, end).toString("ascii")
  if (!CONTENT_TYPE.test(contentType)) return undefined
  return { contentType, bytes: file.subarray(end + 1) }
}

export const make = (root: string): MediaStorage["Service"] => {
  const base = resolve(root)

  /** The file of a valid key; a second check that it is under the root, whatever the key rules say. */
  const pathOf = (key: string): string | undefined => {
    if (!MediaKey.isValid(key)) return undefined
    const path = join(base, ...key.split("/"))
    return path.startsWith(base + sep) ? path : undefined
  }

  const unavailable = (operation: string) => (error: unknown) =>
    new StorageUnavailable({ reason: `filesystem ${operation} failed (${codeOf(error)})` })

  const writeAtomically = async (path: string, data: Uint8Array) => {
    await mkdir(dirname(path), { recursive: true })
    const temporary = join(dirname(path), `.${randomUUID()}.tmp`)
    try {
      const file = await open(temporary, "wx")
      try {
        await file.writeFile(data)
        await file.sync()
      } finally {
        await file.close()
      }
      await rename(temporary, path)
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined)
      throw error
    }
  }

  const put = Effect.fn("FsMediaStorage.put")(function* (key: string, bytes: Uint8Array, contentType: string) {
    const path = pathOf(key)
    if (path === undefined) return yield* Effect.die(MediaKey.invalidKeyDefect(key))
    if (!CONTENT_TYPE.test(contentType)) {
      return yield* Effect.die(new Error(`FsMediaStorage: invalid content type ${JSON.stringify(contentType)}`))
    }
    yield* Effect.tryPromise({
      try: () => writeAtomically(path, encodeObject(bytes, contentType)),
      catch: unavailable("write")
    })
  })

  const get = Effect.fn("FsMediaStorage.get")(function* (key: string) {
    const path = pathOf(key)
    if (path === undefined) return Option.none<StoredObject>()
    const file = yield* Effect.tryPromise({
      try: () =>
        readFile(path).then(
          (data) => Option.some(data),
          (error: unknown) => (isMissing(error) ? Option.none<Buffer>() : Promise.reject(error))
        ),
      catch: unavailable("read")
    })
    if (Option.isNone(file)) return Option.none<StoredObject>()
    const object = decodeObject(file.value)
    if (object === undefined) {
      return yield* new StorageUnavailable({ reason: "filesystem object is not in the expected format" })
    }
    return Option.some(object)
  })

  const remove = Effect.fn("FsMediaStorage.remove")(function* (key: string) {
    const path = pathOf(key)
    if (path === undefined) return yield* Effect.die(MediaKey.invalidKeyDefect(key))
    // force: a missing file is not an error (a folder in its place is, and answers unavailable).
    yield* Effect.tryPromise({ try: () => rm(path, { force: true }), catch: unavailable("remove") })
  })

  return MediaStorage.of({ connected: true, put, get, remove })
}

/** Objects under `root` (created on first write). */
export const layer = (root: string): Layer.Layer<MediaStorage> => Layer.sync(MediaStorage, () => make(root))
