/**
 * A bot posts through @discordjs/rest as a bot library's user would (only the base URL and the test
 * host's fetch hook changed): it sends a message with an embed and a reply, edits it, reads the
 * channel's history and pins one, and the guild's owner reads what it wrote over plain HTTP; a
 * refused post rejects with the library's `DiscordAPIError`.
 */
import { DiscordAPIError, REST } from "@discordjs/rest"
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import {
  type RESTGetAPIChannelMessagesResult,
  RESTJSONErrorCodes,
  type RESTPostAPIChannelMessageResult,
  Routes
} from "discord-api-types/v10"
import { Effect } from "effect"
import { json, register, send } from "./support/Accounts.ts"
import { createApplication, resetBotToken } from "./support/ApplicationScenarios.ts"
import { addBotToGuild } from "./support/Bots.ts"
import { createGuild } from "./support/Guilds.ts"

describe("A bot's messages through @discordjs/rest", () => {
  layer(TestHost.layer())((it) => {
    it.effect("sends, replies, edits, reads history and pins; the owner reads it; an empty post is 50006", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const owner = yield* register("+79050003001", "djs_msg_owner")
        const app = yield* createApplication(owner.access_token, "Posting Bot")
        const token = yield* resetBotToken(owner.access_token, app.id)
        const guild = yield* createGuild(owner.access_token, "Bot Chat")
        const channel = guild.system_channel_id
        // Send Messages, Manage Messages, Read Message History
        yield* addBotToGuild(
          owner.user_id,
          guild.id,
          { id: app.id, name: app.name },
          (1n << 11n) | (1n << 13n) | (1n << 16n)
        )
        const rest = new REST({
          version: "10",
          api: `${TestHost.BASE_URL}/api`,
          makeRequest: (url, init) => host.fetchPromise(url, init as unknown as RequestInit)
        }).setToken(token)

        const sent = (yield* Effect.promise(() =>
          rest.post(Routes.channelMessages(channel), {
            body: { content: "Hello from a bot", nonce: "42", embeds: [{ title: "Status", description: "all good" }] }
          })
        )) as RESTPostAPIChannelMessageResult
        expect(sent).toMatchObject({
          channel_id: channel,
          content: "Hello from a bot",
          nonce: "42",
          author: { id: app.id, bot: true },
          embeds: [{ title: "Status", description: "all good" }]
        })

        const reply = (yield* Effect.promise(() =>
          rest.post(Routes.channelMessages(channel), {
            body: { content: "and a reply", message_reference: { message_id: sent.id } }
          })
        )) as RESTPostAPIChannelMessageResult
        expect(reply).toMatchObject({ type: 19, referenced_message: { id: sent.id } })

        const edited = (yield* Effect.promise(() =>
          rest.patch(Routes.channelMessage(channel, sent.id), { body: { content: "Hello again" } })
        )) as RESTPostAPIChannelMessageResult
        expect(edited.content).toBe("Hello again")
        expect(edited.edited_timestamp).not.toBeNull()

        yield* Effect.promise(() => rest.put(Routes.channelPin(channel, sent.id)))
        yield* Effect.promise(() => rest.post(Routes.channelTyping(channel)))

        const history = (yield* Effect.promise(() =>
          rest.get(Routes.channelMessages(channel), { query: new URLSearchParams({ limit: "10" }) })
        )) as RESTGetAPIChannelMessagesResult
        expect(history.map((m) => m.id)).toEqual([reply.id, sent.id])
        expect(history[1]?.pinned).toBe(true)

        // the owner reads the bot's words over plain HTTP
        const seen = (yield* json(
          yield* send("GET", `/api/v10/channels/${channel}/messages`, undefined, owner.access_token)
        )) as ReadonlyArray<{ content: string; author: { bot: boolean } }>
        expect(seen.map((m) => [m.content, m.author.bot])).toEqual([
          ["and a reply", true],
          ["Hello again", true]
        ])

        const refused = yield* Effect.promise(() =>
          rest.post(Routes.channelMessages(channel), { body: { content: "" } }).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect(refused).toBeInstanceOf(DiscordAPIError)
        expect(refused).toMatchObject({ status: 400, code: RESTJSONErrorCodes.CannotSendAnEmptyMessage })
        yield* Effect.promise(() => rest.delete(Routes.channelMessage(channel, reply.id)))
      })
    )
  })
})
