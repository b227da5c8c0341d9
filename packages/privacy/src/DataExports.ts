/**
 * Data exports: asked for at most once a day (429) and not while one is being prepared (409);
 * built by a worker in the layer's scope from the store (so a restart loses nothing, and a crashed
 * worker's lease runs out for another to take it); kept a week, then deleted; each read of a ready
 * export mints a fresh download link valid one hour (only its digest is stored).
 */
import { RegistrationErrors, Tokens } from "@veche/auth"
import { MediaStorage } from "@veche/media"
import { Snowflake, Spans } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, DateTime, Duration, Effect, Latch, Layer, Option, type Redacted, type Scope } from "effect"
import { archiveKey, type DataExport, KEPT_FOR, LINK_VALID_FOR } from "./DataExport.ts"
import { DataExportsRepo } from "./DataExportsRepo.ts"
import { ExportArchive } from "./ExportArchive.ts"
import type { ExportInProgress } from "./PrivacyErrors.ts"

/** A ready export with a download link minted for this answer. */
export interface ExportView {
  readonly export: DataExport
  readonly link: Option.Option<{ readonly token: Redacted.Redacted<string>; readonly expiresAt: DateTime.Utc }>
}

const LEASE = Duration.minutes(10)
const LOOK_AGAIN = Duration.minutes(1)

export class DataExports extends Context.Service<
  DataExports,
  {
    readonly request: (
      userId: Snowflake.Snowflake
    ) => Effect.Effect<
      DataExport,
      ExportInProgress | RegistrationErrors.TooManyAttempts | RegistrationErrors.TemporarilyUnavailable
    >
    readonly latest: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<ExportView>>
    /** The archive a download link opens, if the link is valid now. */
    readonly download: (
      id: Snowflake.Snowflake,
      token: Redacted.Redacted<string>
    ) => Effect.Effect<Option.Option<Uint8Array>>
    /** Builds what is waiting and deletes what has expired (the worker runs it; so may operators). */
    readonly work: Effect.Effect<void>
  }
>()("@veche/privacy/DataExports") {
  static readonly layer: Layer.Layer<
    DataExports,
    never,
    | DataExportsRepo
    | ExportArchive
    | MediaStorage.MediaStorage
    | Tokens.Tokens
    | QuotaLimiter.QuotaLimiter
    | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    DataExports,
    Effect.gen(function* () {
      const repo = yield* DataExportsRepo
      const archive = yield* ExportArchive
      const storage = yield* MediaStorage.MediaStorage
      const tokens = yield* Tokens.Tokens
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const ids = yield* Snowflake.SnowflakeGenerator
      const scope: Scope.Scope = yield* Effect.scope
      const wake = yield* Latch.make(false)

      const build = Effect.fnUntraced(function* (exported: DataExport) {
        const bytes = yield* archive.build(exported.userId)
        yield* storage.put(archiveKey(exported), bytes, "application/zip")
        const now = yield* DateTime.now
        yield* repo.markReady(
          exported.id,
          now,
          DateTime.add(now, { milliseconds: Duration.toMillis(KEPT_FOR) }),
          bytes.length
        )
      })

      const work = Effect.gen(function* () {
        const now = yield* DateTime.now
        const claimed = yield* repo.claim(now, DateTime.add(now, { milliseconds: Duration.toMillis(LEASE) }), 4)
        yield* Effect.forEach(
          claimed,
          (exported) =>
            build(exported).pipe(
              Effect.catchCause((cause) =>
                Effect.andThen(
                  Effect.logError(`data export ${exported.id} failed`, cause),
                  repo.markFailed(exported.id)
                )
              )
            ),
          { discard: true }
        )
        for (const expired of yield* repo.expiring(now)) {
          yield* storage.remove(archiveKey(expired)).pipe(Effect.ignore)
          yield* repo.markExpired(expired.id)
        }
      }).pipe(Effect.withSpan("DataExports.work"))

      // Woken by a new request on this node; otherwise looks again every minute (other nodes, expiry).
      const worker = Effect.gen(function* () {
        yield* work.pipe(Effect.catchCause((cause) => Effect.logError("data export worker", cause)))
        yield* Effect.raceFirst(wake.await, Effect.sleep(LOOK_AGAIN))
        yield* wake.close
      }).pipe(Effect.forever)
      yield* Effect.forkIn(worker, scope)

      const request = Spans.fn("DataExports.request")(function* (userId: Snowflake.Snowflake) {
        yield* quotas.check("dataExportPerUser", userId).pipe(Effect.catchTags(RegistrationErrors.fromQuota))
        const exported: DataExport = {
          id: yield* ids.next,
          userId,
          state: "preparing",
          requestedAt: yield* DateTime.now,
          readyAt: null,
          expiresAt: null,
          sizeBytes: null
        }
        yield* repo.create(exported)
        // Counted once the export is really queued: a 409 does not use up the day.
        yield* quotas.consume("dataExportPerUser", userId).pipe(Effect.ignore)
        yield* wake.open
        return exported
      })

      const latest = Spans.fn("DataExports.latest")(function* (userId: Snowflake.Snowflake) {
        const found = yield* repo.latest(userId)
        if (Option.isNone(found)) return Option.none<ExportView>()
        if (found.value.state !== "ready") return Option.some({ export: found.value, link: Option.none() })
        const minted = yield* tokens.mint("download")
        const expiresAt = DateTime.add(yield* DateTime.now, { milliseconds: Duration.toMillis(LINK_VALID_FOR) })
        yield* repo.setLink(found.value.id, minted.digest, expiresAt)
        return Option.some({ export: found.value, link: Option.some({ token: minted.token, expiresAt }) })
      })

      const download = Spans.fn("DataExports.download")(function* (
        id: Snowflake.Snowflake,
        token: Redacted.Redacted<string>
      ) {
        if (tokens.kindOf(token) !== "download") return Option.none<Uint8Array>()
        const found = yield* repo.findByLink(yield* tokens.digest(token), yield* DateTime.now)
        if (Option.isNone(found) || found.value.id !== id) return Option.none<Uint8Array>()
        const stored = yield* storage.get(archiveKey(found.value)).pipe(Effect.orElseSucceed(() => Option.none()))
        return Option.map(stored, (object) => object.bytes)
      })

      return DataExports.of({ request, latest, download, work })
    })
  )
}
