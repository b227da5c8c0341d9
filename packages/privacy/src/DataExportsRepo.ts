/**
 * The port to data exports, and its in-memory adapter. Creating is refused while the user has one
 * preparing (the store settles races); claiming leases an export to one worker; a download link is
 * stored as the digest of its secret with its expiry (a newer link replaces the older).
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { DataExport } from "./DataExport.ts"
import { ExportInProgress } from "./PrivacyErrors.ts"

interface Row {
  readonly export: DataExport
  readonly leaseUntil: DateTime.Utc | null
  readonly link: { readonly digest: string; readonly expiresAt: DateTime.Utc } | null
}

export class DataExportsRepo extends Context.Service<
  DataExportsRepo,
  {
    readonly create: (exported: DataExport) => Effect.Effect<void, ExportInProgress>
    /** The user's newest export. */
    readonly latest: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<DataExport>>
    /** Leases up to `limit` preparing exports not leased at `now` (or whose lease ran out). */
    readonly claim: (
      now: DateTime.Utc,
      leaseUntil: DateTime.Utc,
      limit: number
    ) => Effect.Effect<ReadonlyArray<DataExport>>
    readonly markReady: (
      id: Snowflake.Snowflake,
      readyAt: DateTime.Utc,
      expiresAt: DateTime.Utc,
      sizeBytes: number
    ) => Effect.Effect<void>
    readonly markFailed: (id: Snowflake.Snowflake) => Effect.Effect<void>
    /** Ready exports whose archive is due for deletion at `now`. */
    readonly expiring: (now: DateTime.Utc) => Effect.Effect<ReadonlyArray<DataExport>>
    readonly markExpired: (id: Snowflake.Snowflake) => Effect.Effect<void>
    readonly setLink: (id: Snowflake.Snowflake, digest: string, expiresAt: DateTime.Utc) => Effect.Effect<void>
    /** The ready export a link digest opens at `now`, if any. */
    readonly findByLink: (digest: string, now: DateTime.Utc) => Effect.Effect<Option.Option<DataExport>>
  }
>()("@veche/privacy/DataExportsRepo") {
  static readonly layerMemory: Layer.Layer<DataExportsRepo> = Layer.effect(
    DataExportsRepo,
    Effect.gen(function* () {
      const rows = yield* Ref.make<ReadonlyArray<Row>>([])
      const patch = (id: string, change: (row: Row) => Row) =>
        Ref.update(rows, (all) => all.map((row) => (row.export.id === id ? change(row) : row)))
      const withState = (row: Row, state: DataExport["state"], extra: Partial<DataExport> = {}): Row => ({
        ...row,
        export: { ...row.export, ...extra, state },
        leaseUntil: null
      })
      return DataExportsRepo.of({
        create: (exported) =>
          Ref.modify(rows, (all): [Effect.Effect<void, ExportInProgress>, ReadonlyArray<Row>] =>
            all.some((row) => row.export.userId === exported.userId && row.export.state === "preparing")
              ? [Effect.fail(new ExportInProgress()), all]
              : [Effect.void, [...all, { export: exported, leaseUntil: null, link: null }]]
          ).pipe(Effect.flatten),
        latest: (userId) =>
          Effect.map(Ref.get(rows), (all) =>
            Option.fromNullishOr(all.filter((row) => row.export.userId === userId).at(-1)?.export)
          ),
        claim: (now, leaseUntil, limit) =>
          Ref.modify(rows, (all): [ReadonlyArray<DataExport>, ReadonlyArray<Row>] => {
            const claimed: Array<DataExport> = []
            const next = all.map((row) => {
              const free = row.leaseUntil === null || !DateTime.isGreaterThan(row.leaseUntil, now)
              if (claimed.length >= limit || row.export.state !== "preparing" || !free) return row
              claimed.push(row.export)
              return { ...row, leaseUntil }
            })
            return [claimed, next]
          }),
        markReady: (id, readyAt, expiresAt, sizeBytes) =>
          patch(id, (row) => withState(row, "ready", { readyAt, expiresAt, sizeBytes })),
        markFailed: (id) => patch(id, (row) => withState(row, "failed")),
        expiring: (now) =>
          Effect.map(Ref.get(rows), (all) =>
            all
              .map((row) => row.export)
              .filter((e) => e.state === "ready" && e.expiresAt !== null && !DateTime.isGreaterThan(e.expiresAt, now))
          ),
        markExpired: (id) => patch(id, (row) => ({ ...withState(row, "expired"), link: null })),
        setLink: (id, digest, expiresAt) => patch(id, (row) => ({ ...row, link: { digest, expiresAt } })),
        findByLink: (digest, now) =>
          Effect.map(Ref.get(rows), (all) =>
            Option.fromNullishOr(
              all.find(
                (row) =>
                  row.link !== null &&
                  row.link.digest === digest &&
                  DateTime.isGreaterThan(row.link.expiresAt, now) &&
                  row.export.state === "ready"
              )?.export
            )
          )
      })
    })
  )
}
