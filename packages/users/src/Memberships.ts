/**
 * The port through which the users domain learns a user's servers, in join order (for the guild
 * order of CurrentUser, and later the deletion rule). The guilds package implements it; until a host
 * wires that in, `layerNone` truthfully answers that nobody is in any server.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Ref } from "effect"

export class Memberships extends Context.Service<
  Memberships,
  {
    /** The ids of the servers the user is a member of, oldest membership first. */
    readonly guildsOf: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /** Whether the user owns a server that has other members (deletion waits for a transfer). */
    readonly ownsGuildsWithOthers: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/users/Memberships") {
  static readonly layerNone: Layer.Layer<Memberships> = Layer.succeed(
    Memberships,
    Memberships.of({ guildsOf: () => Effect.succeed([]), ownsGuildsWithOthers: () => Effect.succeed(false) })
  )

  /** A fixed table (tests, demos). */
  static readonly layerStatic = (
    table: Readonly<Record<string, ReadonlyArray<Snowflake.Snowflake>>>
  ): Layer.Layer<Memberships> =>
    Layer.succeed(
      Memberships,
      Memberships.of({
        guildsOf: (userId) => Effect.succeed(table[userId] ?? []),
        ownsGuildsWithOthers: () => Effect.succeed(false)
      })
    )
}

/** Memberships kept in memory, for hosts without the guilds domain (tests, demos): joined by hand. */
export class MembershipsTable extends Context.Service<
  MembershipsTable,
  {
    readonly join: (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) => Effect.Effect<void>
    /** Marks the user as owner of a server with other members (or not). */
    readonly setOwnsGuildsWithOthers: (userId: Snowflake.Snowflake, owns: boolean) => Effect.Effect<void>
  }
>()("@veche/users/MembershipsTable") {
  static readonly layer: Layer.Layer<Memberships | MembershipsTable> = Layer.effectContext(
    Effect.gen(function* () {
      const table = yield* Ref.make<ReadonlyMap<string, ReadonlyArray<Snowflake.Snowflake>>>(new Map())
      const owners = yield* Ref.make<ReadonlySet<string>>(new Set())
      return Context.make(
        Memberships,
        Memberships.of({
          guildsOf: (userId) => Effect.map(Ref.get(table), (all) => all.get(userId) ?? []),
          ownsGuildsWithOthers: (userId) => Effect.map(Ref.get(owners), (all) => all.has(userId))
        })
      ).pipe(
        Context.add(
          MembershipsTable,
          MembershipsTable.of({
            join: (userId, guildId) =>
              Ref.update(table, (all) => {
                const current = all.get(userId) ?? []
                return current.includes(guildId) ? all : new Map(all).set(userId, [...current, guildId])
              }),
            setOwnsGuildsWithOthers: (userId, owns) =>
              Ref.update(owners, (all) => {
                const next = new Set(all)
                if (owns) next.add(userId)
                else next.delete(userId)
                return next
              })
          })
        )
      )
    })
  )
}

/**
 * The order a user sees: their own order first (ids they are no longer in dropped, duplicates
 * dropped), then the servers they left out, in join order.
 */
export const effectiveOrder = (
  chosen: ReadonlyArray<string>,
  joined: ReadonlyArray<Snowflake.Snowflake>
): ReadonlyArray<Snowflake.Snowflake> => {
  const member = new Set<string>(joined)
  const seen = new Set<string>()
  const ordered: Array<Snowflake.Snowflake> = []
  for (const id of chosen) {
    if (member.has(id) && !seen.has(id)) {
      seen.add(id)
      ordered.push(id as Snowflake.Snowflake)
    }
  }
  for (const id of joined) if (!seen.has(id)) ordered.push(id)
  return ordered
}
