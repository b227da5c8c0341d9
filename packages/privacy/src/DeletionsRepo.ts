/**
 * The port to deletion requests (one per account; a new request replaces a cancelled one), and its
 * in-memory adapter. Claiming a due request is atomic, so of several workers exactly one carries a
 * request out; `complete` is idempotent.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { Deletion } from "./Deletion.ts"

export class DeletionsRepo extends Context.Service<
  DeletionsRepo,
  {
    readonly find: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    /** A pending request stays as it is (answered); otherwise this one is stored. */
    readonly request: (deletion: Deletion) => Effect.Effect<Deletion>
    /** Cancels a pending request; none when there was none pending. */
    readonly cancel: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Deletion>>
    /** Pending requests due at `now`, oldest first, at most `limit`. */
    readonly due: (now: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<Deletion>>
    /** The earliest instant a pending request becomes due. */
    readonly nextDue: Effect.Effect<Option.Option<DateTime.Utc>>
    /** Marks a pending request completed; false when it was not pending (cancelled meanwhile, or done). */
    readonly complete: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/privacy/DeletionsRepo") {
  static readonly layerMemory: Layer.Layer<DeletionsRepo> = Layer.effect(
    DeletionsRepo,
    Effect.gen(function* () {
      const all = yield* Ref.make<ReadonlyMap<string, Deletion>>(new Map())
      const pending = (map: ReadonlyMap<string, Deletion>) => [...map.values()].filter((d) => d.state === "pending")
      const change = (userId: string, from: Deletion["state"], to: Deletion["state"]) =>
        Ref.modify(all, (map): [Option.Option<Deletion>, ReadonlyMap<string, Deletion>] => {
          const current = map.get(userId)
          if (current === undefined || current.state !== from) return [Option.none(), map]
          const next = { ...current, state: to }
          return [Option.some(next), new Map(map).set(userId, next)]
        })
      return DeletionsRepo.of({
        find: (userId) => Effect.map(Ref.get(all), (map) => Option.fromNullishOr(map.get(userId))),
        request: (deletion) =>
          Ref.modify(all, (map): [Deletion, ReadonlyMap<string, Deletion>] => {
            const current = map.get(deletion.userId)
            if (current?.state === "pending") return [current, map]
            return [deletion, new Map(map).set(deletion.userId, deletion)]
          }),
        cancel: (userId) => change(userId, "pending", "cancelled"),
        due: (now, limit) =>
          Effect.map(Ref.get(all), (map) =>
            pending(map)
              .filter((d) => !DateTime.isGreaterThan(d.deleteAt, now))
              .sort((a, b) => DateTime.toEpochMillis(a.deleteAt) - DateTime.toEpochMillis(b.deleteAt))
              .slice(0, limit)
          ),
        nextDue: Effect.map(Ref.get(all), (map) => {
          const times = pending(map).map((d) => DateTime.toEpochMillis(d.deleteAt))
          return times.length === 0 ? Option.none() : Option.some(DateTime.makeUnsafe(Math.min(...times)))
        }),
        complete: (userId) => Effect.map(change(userId, "pending", "completed"), Option.isSome)
      })
    })
  )
}
