/**
 * Data exports on memory stores, fake domain parts and the test clock: the archive collects every
 * part's sections (shared files merged in export order, a README naming each file), a request
 * wakes the worker, a download link opens its own export only, an export whose part fails is
 * marked failed rather than lost, one a day, and archives expire after a week.
 */
import { describe, expect, it } from "@effect/vitest"
import { RegistrationErrors, Tokens } from "@veche/auth"
import { MediaStorage } from "@veche/media"
import { Snowflake } from "@veche/platform"
import { QuotaLimiter, RateLimitStore } from "@veche/ratelimit"
import { PersonalData } from "@veche/users"
import { Duration, Effect, Layer, Option, Redacted, Ref } from "effect"
import { Digest, SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import { DataExports } from "../src/DataExports.ts"
import { DataExportsRepo } from "../src/DataExportsRepo.ts"
import { ExportArchive } from "../src/ExportArchive.ts"
import { ZipWriter } from "../src/ZipWriter.ts"
import { makeRecorder, type Recorder, threeParts } from "./support/FakeParts.ts"

const userId = Snowflake.Snowflake.make("1311000000000000002")

/** A "ZIP" the test can read back: the entries as JSON, names and texts in their order. */
const jsonZip = Layer.succeed(
  ZipWriter,
  ZipWriter.of({
    zip: (entries) =>
      Effect.succeed(
        new TextEncoder().encode(
          JSON.stringify(entries.map((entry) => [entry.name, new TextDecoder().decode(entry.bytes)]))
        )
      )
  })
)

const unzip = (bytes: Uint8Array): ReadonlyArray<readonly [string, string]> =>
  JSON.parse(new TextDecoder().decode(bytes)) as ReadonlyArray<readonly [string, string]>

const exportsOn = (recorder: Recorder) =>
  DataExports.layer.pipe(
    Layer.provideMerge(ExportArchive.layer),
    Layer.provideMerge(threeParts(recorder)),
    Layer.provideMerge(
      Layer.mergeAll(
        PersonalData.PersonalData.layer,
        DataExportsRepo.layerMemory,
        MediaStorage.MediaStorage.layerMemory,
        jsonZip,
        Tokens.Tokens.layer.pipe(Layer.provide(Layer.merge(SecureRandom.layerWebCrypto, Digest.layerWebCrypto))),
        QuotaLimiter.QuotaLimiter.layer().pipe(Layer.provide(RateLimitStore.layerMemory)),
        Snowflake.SnowflakeGenerator.layer(1)
      )
    )
  )

/** The user's latest export (minting a fresh link when it is ready). */
const latest = Effect.flatMap(Effect.service(DataExports), (exports) => exports.latest(userId))

describe("DataExports", () => {
  it.effect("a request wakes the worker; the archive holds every part's sections; its link opens it", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        const exports = yield* DataExports
        const queued = yield* exports.request(userId)
        expect(queued.state).toBe("preparing")
        yield* TestClock.adjust(Duration.millis(1))
        const ready = Option.getOrThrow(yield* latest)
        expect(ready.export.state).toBe("ready")
        const link = Option.getOrThrow(ready.link)
        const archive = Option.getOrThrow(yield* exports.download(queued.id, link.token))
        expect(ready.export.sizeBytes).toBe(archive.length)
        const files = unzip(archive)
        // files in the order they first appear, lowest level first; shared objects merged in that order
        expect(files.map(([name]) => name)).toEqual([
          "README.txt",
          "account.json",
          "users.json",
          "auth.json",
          "guilds.json"
        ])
        expect(files[0]?.[1]).toBe(
          [
            "This archive holds what Veche keeps about your account, as JSON:",
            "account.json",
            "users.json    what users keeps",
            "auth.json     what auth keeps",
            "guilds.json   what guilds keeps",
            "Secrets (your password, two-factor secret, codes and tokens) are never exported.",
            ""
          ].join("\n")
        )
        expect(Object.keys(JSON.parse(files[1]?.[1] ?? "{}"))).toEqual(["users_of", "auth_of", "guilds_of"])
        expect(JSON.parse(files[2]?.[1] ?? "null")).toEqual(["users"])
        // a link opens its own export only, and only while valid
        expect(
          yield* exports.download(
            yield* Effect.flatMap(Effect.service(Snowflake.SnowflakeGenerator), (ids) => ids.next),
            link.token
          )
        ).toEqual(Option.none())
        expect(yield* exports.download(queued.id, Redacted.make("vdl_forged"))).toEqual(Option.none())
        yield* TestClock.adjust(Duration.hours(1))
        expect(yield* exports.download(queued.id, link.token)).toEqual(Option.none())
      }).pipe(Effect.provide(exportsOn(recorder)))
    })
  )

  it.effect("an export whose part fails is marked failed, not lost; one a day; archives expire after a week", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        const exports = yield* DataExports
        yield* Ref.set(recorder.failing, { auth: 1 })
        yield* exports.request(userId)
        yield* exports.work
        expect(Option.map(yield* latest, (view) => view.export.state)).toEqual(Option.some("failed"))
        // one a day, failed or not
        expect(yield* Effect.flip(exports.request(userId))).toBeInstanceOf(RegistrationErrors.TooManyAttempts)
        yield* TestClock.adjust(Duration.days(1))
        const again = yield* exports.request(userId)
        yield* exports.work
        const ready = Option.getOrThrow(yield* latest)
        expect([ready.export.id, ready.export.state]).toEqual([again.id, "ready"])
        // kept a week, then the archive is deleted
        yield* TestClock.adjust(Duration.weeks(1))
        yield* exports.work
        const expired = Option.getOrThrow(yield* latest)
        expect([expired.export.state, Option.isNone(expired.link)]).toEqual(["expired", true])
        const storage = yield* MediaStorage.MediaStorage
        expect(yield* storage.get(`exports/${userId}/${again.id}.zip`)).toEqual(Option.none())
      }).pipe(Effect.provide(exportsOn(recorder)))
    })
  )
})
