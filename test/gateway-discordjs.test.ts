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
import { TestHost } from "@veche/test-host"
import { type GatewayDispatchPayload, GatewayIntentBits } from "discord-api-types/v10"
import { Effect } from "effect"
import { post } from "./support/Accounts.ts"
import { botInGuild } from "./support/Bots.ts"
import * as GatewayServer from "./support/GatewayServer.ts"

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
        const host = yield* TestHost.TestHost
        const { owner, guild, app, token } = yield* botInGuild("+79050009101", "djsws", {
          guild: "Library Guild",
          bot: "Socket Bot"
        })
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
