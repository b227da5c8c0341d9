/**
 * The guild cap before a guild icon, on PostgreSQL: a create checks the cap before storing its
 * icon, and when another create takes the last place while the icon is being stored, the
 * repository's atomic check refuses it and the stored icon is discarded.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Guilds } from "@veche/guilds"
import type { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { register } from "~/test/support/Accounts"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

const noIcon = () => Effect.succeed(null)

describe.runIf(url !== undefined && url !== "")("Guild icons at the cap (PostgreSQL)", () => {
  layer(
    TestHost.layer({
      rateLimits: { enabled: false },
      repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
    })
  )((it) => {
    it.effect("losing the last place while the icon is stored discards the icon; at the cap nothing is stored", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79891110001", "icon_cap_racer")
        const actor = { userId: account.user_id as Snowflake.Snowflake, bot: false }
        const stored = new Set<string>()
        const store = (guildId: Snowflake.Snowflake) =>
          Effect.sync(() => {
            stored.add(`${guildId}/icon`)
            return "icon"
          })
        const discard = (guildId: Snowflake.Snowflake, hash: string) =>
          Effect.sync(() => stored.delete(`${guildId}/${hash}`))
        yield* host.run(
          Effect.gen(function* () {
            const guilds = yield* Guilds.Guilds
            for (let i = 0; i < 99; i++) yield* guilds.create(actor, { name: `Guild ${i}` }, noIcon)
            // Another create takes the 100th place while this one stores its icon.
            const lost = yield* Effect.flip(
              guilds.create(
                actor,
                { name: "Loser" },
                (guildId) => Effect.andThen(guilds.create(actor, { name: "Winner" }, noIcon), store(guildId)),
                discard
              )
            )
            expect(lost._tag).toBe("GuildLimitReached")
            expect([...stored]).toEqual([])
            // At the cap, concurrent creates are refused before any icon is stored.
            const refused = yield* Effect.forEach(
              Array.from({ length: 8 }),
              (_, i) => Effect.flip(guilds.create(actor, { name: `Late ${i}` }, store, discard)),
              { concurrency: "unbounded" }
            )
            expect(refused.every((error) => error._tag === "GuildLimitReached")).toBe(true)
            expect([...stored]).toEqual([])
          })
        )
      })
    )
  })
})
