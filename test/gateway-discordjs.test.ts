/**
 * @discordjs/ws's WebSocketManager against the gateway on a real port, as a bot library runs it
 * (only the REST base URL changed): it reads GET /gateway/bot, connects, gets READY and its guild's
 * GUILD_CREATE, and when the server asks every session to reconnect (op 7, the shutdown path) it
 * resumes the same session and keeps receiving dispatches.
 */
import { REST } from "@discordjs/rest"
import { WebSocketManager, WebSocketShardEvents } from "@discordjs/ws"
import { describe, expect, layer } from "@effect/vitest"
import { Gateway } from "@veche/gateway"
import { Guilds } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { type GatewayDispatchPayload, GatewayIntentBits } from "discord-api-types/v10"
import { Effect } from "effect"
import { post, register } from "./support/Accounts.ts"
import { createApplication, resetBotToken } from "./support/ApplicationScenarios.ts"
import * as GatewayServer from "./support/GatewayServer.ts"
import { createGuild } from "./support/Guilds.ts"

/** Resolves with the first event `matches` accepts, or rejects after 10 s. */
const waitFor = <A>(subscribe: (listener: (value: A) => void) => void, matches: (value: A) => boolean) =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timed out")), 10_000)
    subscribe((value) => {
      if (matches(value)) {
        clearTimeout(timer)
        resolve(value)
      }
    })
  })

describe("@discordjs/ws against the gateway", () => {
  layer(GatewayServer.layer())((it) => {
    it.effect("connects with a bot token, gets READY and GUILD_CREATE, and resumes after op 7", () =>
      Effect.gen(function* () {
        const owner = yield* register("+79050009101", "djsws_owner")
        const guild = yield* createGuild(owner.access_token, "Library Guild")
        const app = yield* createApplication(owner.access_token, "Socket Bot")
        const token = yield* resetBotToken(owner.access_token, app.id)
        const host = yield* TestHost.TestHost
        yield* host.run(
          Effect.flatMap(Effect.service(Guilds.Guilds), (guilds) =>
            guilds.addBot(
              { userId: Snowflake.Snowflake.make(owner.user_id), bot: false },
              Snowflake.Snowflake.make(guild.id),
              { userId: Snowflake.Snowflake.make(app.id), name: "Socket Bot" },
              0n
            )
          )
        )
        const listening = yield* GatewayServer.Listening
        const rest = new REST({ version: "10", api: `${listening.base}/api` }).setToken(token)
        const manager = new WebSocketManager({
          token,
          intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages,
          rest
        })
        const dispatches: Array<GatewayDispatchPayload> = []
        manager.on(WebSocketShardEvents.Dispatch, (payload) => {
          dispatches.push(payload)
        })
        try {
          const ready = waitFor<unknown>(
            (listener) => manager.on(WebSocketShardEvents.Ready, listener),
            () => true
          )
          const guildCreate = waitFor<GatewayDispatchPayload>(
            (listener) => manager.on(WebSocketShardEvents.Dispatch, listener),
            (payload) => payload.t === "GUILD_CREATE"
          )
          yield* Effect.promise(() => manager.connect())
          const readyData = (yield* Effect.promise(() => ready)) as { user: { id: string }; session_id: string }
          expect(readyData.user.id).toBe(app.id)
          const created = yield* Effect.promise(() => guildCreate)
          expect(created.d).toMatchObject({ id: guild.id, unavailable: false })

          // the server asks every session to reconnect (op 7) and closes: the library resumes
          const resumed = waitFor<unknown>(
            (listener) => manager.on(WebSocketShardEvents.Resumed, listener),
            () => true
          )
          yield* host.run(Effect.flatMap(Effect.service(Gateway.Gateway), (gateway) => gateway.shutdown))
          yield* Effect.promise(() => resumed)

          // and the same session keeps receiving the guild's dispatches
          const roleCreated = waitFor<GatewayDispatchPayload>(
            (listener) => manager.on(WebSocketShardEvents.Dispatch, listener),
            (payload) => payload.t === "GUILD_ROLE_CREATE"
          )
          expect(
            (yield* post(`/api/v10/guilds/${guild.id}/roles`, { name: "resumed" }, owner.access_token)).status
          ).toBe(200)
          const role = yield* Effect.promise(() => roleCreated)
          expect(role.d).toMatchObject({ guild_id: guild.id, role: { name: "resumed" } })
          // one READY only: the session was resumed, not identified again
          expect(dispatches.filter((payload) => payload.t === "READY")).toHaveLength(1)
        } finally {
          yield* Effect.promise(async () => manager.destroy())
        }
      })
    )
  })
})
