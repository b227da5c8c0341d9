/**
 * discord.js 14's Client logs in as a bot against the gateway on a real port, with only `rest.api`
 * changed: `clientReady` fires, its guild is in `guilds.cache` and available with its channels,
 * a channel made through the API afterwards arrives as `channelCreate`, `channel.send()` answers the
 * message (which the owner then reads through the API) and a user's message arrives as `messageCreate`.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type Channel, Client, Events, GatewayIntentBits, type Message } from "discord.js"
import { Effect } from "effect"
import { json, post, send } from "./support/Accounts.ts"
import { botInGuild } from "./support/Bots.ts"
import * as GatewayServer from "./support/GatewayServer.ts"

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

describe("discord.js Client against the gateway", () => {
  layer(GatewayServer.layer())((it) => {
    it.effect("logs in as a bot: clientReady, its guild in the cache, and live channelCreate", () =>
      Effect.gen(function* () {
        const { owner, guild, app, token } = yield* botInGuild("+79050009201", "djs_client", {
          guild: "Client Guild",
          bot: "Client Bot"
        })
        const listening = yield* GatewayServer.Listening
        const client = new Client({
          intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages],
          rest: { api: `${listening.base}/api` }
        })
        try {
          const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()))
          yield* Effect.promise(() => within(client.login(token), "login"))
          yield* Effect.promise(() => within(ready, "clientReady"))
          expect(client.user?.id).toBe(app.id)
          expect(client.application?.id).toBe(app.id)
          const cached = client.guilds.cache.get(guild.id)
          expect(cached?.available).toBe(true)
          expect(cached?.name).toBe("Client Guild")
          expect(cached?.channels.cache.has(guild.system_channel_id)).toBe(true)

          const created = new Promise<Channel>((resolve) => client.once(Events.ChannelCreate, resolve))
          expect(
            (yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "from-api" }, owner.access_token)).status
          ).toBe(201)
          const channel = yield* Effect.promise(() => within(created, "channelCreate"))
          expect(channel.id).toMatch(/^\d{17,19}$/)
          expect(cached?.channels.cache.get(channel.id)?.name).toBe("from-api")

          // the bot posts with discord.js; the owner reads it through the API
          const system = cached?.channels.cache.get(guild.system_channel_id)
          if (system === undefined || !system.isTextBased()) return expect.fail("system channel not text-based")
          const sent = yield* Effect.promise(() => within(system.send("hello from the bot"), "channel.send"))
          expect(sent.id).toMatch(/^\d{17,19}$/)
          expect(sent.content).toBe("hello from the bot")
          expect(sent.author.id).toBe(app.id)
          const listed = yield* send(
            "GET",
            `/api/v10/channels/${guild.system_channel_id}/messages`,
            undefined,
            owner.access_token
          )
          expect(listed.status).toBe(200)
          const history = (yield* json(listed)) as ReadonlyArray<{
            id: string
            content: string
            author: { id: string }
          }>
          expect(history.map((m) => [m.id, m.content, m.author.id])).toContainEqual([
            sent.id,
            "hello from the bot",
            app.id
          ])

          // a user's message through the API arrives as messageCreate
          const arrived = new Promise<Message>((resolve) =>
            client.on(Events.MessageCreate, (message) => {
              if (message.author.id === owner.user_id) resolve(message)
            })
          )
          const posted = yield* post(
            `/api/v10/channels/${guild.system_channel_id}/messages`,
            { content: "hello bot" },
            owner.access_token
          )
          expect(posted.status).toBe(200)
          const postedId = ((yield* json(posted)) as { id: string }).id
          const message = yield* Effect.promise(() => within(arrived, "messageCreate"))
          expect(message.id).toBe(postedId)
          expect(message.channelId).toBe(guild.system_channel_id)
          expect(message.guildId).toBe(guild.id)
          expect(message.inGuild()).toBe(true)
          // without the MessageContent intent (and its application flag) the text is not sent
          expect(message.content).toBe("")
        } finally {
          yield* Effect.promise(() => client.destroy())
        }
      })
    )
  })
})
