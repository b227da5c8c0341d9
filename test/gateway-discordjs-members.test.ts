/**
 * discord.js 14's `guild.members.fetch()` against the gateway (only `rest.api` changed): the whole
 * list through op 8 with the GUILD_MEMBERS intent, a prefix search and a fetch by ids, answered with
 * GUILD_MEMBERS_CHUNKs that the library matches by nonce.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Client, Events, GatewayIntentBits } from "discord.js"
import { Effect } from "effect"
import { register } from "./support/Accounts.ts"
import { botInGuild } from "./support/Bots.ts"
import * as GatewayServer from "./support/GatewayServer.ts"
import { accept, inviteTo } from "./support/Guilds.ts"

const within = <A>(promise: Promise<A>, what: string) =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: timed out`)), 15_000)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })

describe("discord.js guild.members.fetch() against the gateway", () => {
  layer(GatewayServer.layer())((it) => {
    it.effect("fetches every member, a prefix and ids over op 8", () =>
      Effect.gen(function* () {
        const { owner, guild, app, token } = yield* botInGuild("+79050019101", "djs_members")
        const host = yield* TestHost.TestHost
        const flagged = yield* host.fetch(`/api/v10/applications/${app.id}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${owner.access_token}`, "content-type": "application/json" },
          body: JSON.stringify({ flags: 1 << 15 })
        })
        expect(flagged.status).toBe(200)
        const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
        const first = yield* register("+79050019102", "djsm_first")
        const second = yield* register("+79050019103", "djsm_second")
        for (const user of [first, second]) expect((yield* accept(user.access_token, code)).status).toBe(200)

        const listening = yield* GatewayServer.Listening
        const client = new Client({
          intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
          rest: { api: `${listening.base}/api` }
        })
        try {
          const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()))
          yield* Effect.promise(() => within(client.login(token), "login"))
          yield* Effect.promise(() => within(ready, "clientReady"))
          const cached = client.guilds.cache.get(guild.id)
          if (cached === undefined) return expect.fail("guild not cached")
          const all = yield* Effect.promise(() => within(cached.members.fetch(), "members.fetch()"))
          expect([...all.keys()].sort()).toEqual([owner.user_id, app.id, first.user_id, second.user_id].sort())
          const found = yield* Effect.promise(() =>
            within(cached.members.fetch({ query: "djsm_s", limit: 10 }), "members.fetch({ query })")
          )
          expect([...found.keys()]).toEqual([second.user_id])
          const byIds = yield* Effect.promise(() =>
            within(cached.members.fetch({ user: [first.user_id, owner.user_id] }), "members.fetch({ user })")
          )
          expect([...byIds.keys()].sort()).toEqual([first.user_id, owner.user_id].sort())
        } finally {
          yield* Effect.promise(() => client.destroy())
        }
      })
    )
  })
})
