/**
 * The port to the audit log: append-only, read newest first in pages cut by id (a snowflake, so
 * id order is time order). The memory adapter keeps the entries in an array.
 */
import { Context, Effect, Layer, Ref } from "effect"
import type { AuditEntry, AuditQuery } from "./AuditEntry.ts"

export class AuditLogRepo extends Context.Service<
  AuditLogRepo,
  {
    readonly append: (entry: AuditEntry) => Effect.Effect<void>
    readonly page: (query: AuditQuery) => Effect.Effect<ReadonlyArray<AuditEntry>>
  }
>()("@veche/moderation/AuditLogRepo") {
  static readonly layerMemory: Layer.Layer<AuditLogRepo> = Layer.effect(
    AuditLogRepo,
    Effect.map(Ref.make<ReadonlyArray<AuditEntry>>([]), (entries) =>
      AuditLogRepo.of({
        append: (entry) => Ref.update(entries, (all) => [...all, entry]),
        page: (query) =>
          Effect.map(Ref.get(entries), (all) =>
            all
              .filter(
                (entry) =>
                  (query.before === null || BigInt(entry.id) < BigInt(query.before)) &&
                  (query.action === null || entry.action === query.action) &&
                  (query.targetId === null || entry.targetId === query.targetId)
              )
              .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0))
              .slice(0, query.limit)
          )
      })
    )
  )
}
