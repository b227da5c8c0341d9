/**
 * Messages through HTTP, as one set of scenarios any test host can run: sending (shape, nonce,
 * embeds, mentions, replies), history pages, reading, editing, deleting, typing, pins, and every
 * refusal the issue names (50006, 50001/50013, 20016 slow mode, 20024, 40002, 50005, 30003, 10008),
 * with the dispatches each change publishes. test/messages.test.ts runs them on memory;
 * adapters/postgres/test/MessageRoutes.test.ts on PostgreSQL.
 */
import { describe, expect, layer } from "@effect/vitest"
import { EventBus, Snowflake } from "@veche/platform"
import { AccountDeletion, DataExports, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect, Fiber, type Layer, Stream } from "effect"
import { json, PASSWORD, post, type Registered, register, send } from "./Accounts.ts"
import { asBot, createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { addBotToGuild } from "./Bots.ts"
import { accept, type CreatedGuild, createGuild, inviteTo } from "./Guilds.ts"
import { unzip } from "./Unzip.ts"

const API = "/api/v10"

interface MessageBody {
  readonly id: string
  readonly channel_id: string
  readonly content: string
  readonly author: { readonly id: string; readonly bot: boolean }
  readonly edited_timestamp: string | null
  readonly mentions: ReadonlyArray<{ readonly id: string }>
  readonly mention_roles: ReadonlyArray<string>
  readonly mention_everyone: boolean
  readonly pinned: boolean
  readonly type: number
  readonly nonce?: string | number
  readonly referenced_message?: { readonly id: string } | null
}

export const messageScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () => TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() })

  let phone = 79673000000
  const user = (
    name: string,
    extra: Record<string, unknown> = {}
  ): Effect.Effect<Registered, never, TestHost.TestHost> => register(`+${++phone}`, `${name}_${phone % 100000}`, extra)

  const answer = (response: Response) => Effect.map(json(response), (body) => ({ status: response.status, body }))
  const code = (response: Response) =>
    Effect.map(json(response), (body) => ({ status: response.status, code: (body as { code?: number }).code }))
  const postMessage = (channelId: string, body: unknown, token: string) =>
    post(`${API}/channels/${channelId}/messages`, body, token)
  const say = (channelId: string, content: string, token: string) =>
    Effect.gen(function* () {
      const sent = yield* postMessage(channelId, { content }, token)
      expect(sent.status).toBe(200)
      return (yield* json(sent)) as MessageBody
    })

  /** A guild with its owner and one member who joined by invitation. */
  const guildWithMember = (name: string, guildExtra: Record<string, unknown> = {}) =>
    Effect.gen(function* () {
      const owner = yield* user(`${name}_o`)
      const member = yield* user(`${name}_m`)
      const guild = yield* createGuild(owner.access_token, name, guildExtra)
      const invite = yield* inviteTo(owner.access_token, guild.system_channel_id)
      expect((yield* accept(member.access_token, invite)).status).toBe(200)
      return { owner, member, guild, channel: guild.system_channel_id }
    })

  const newChannel = (guild: CreatedGuild, token: string, body: Record<string, unknown>) =>
    Effect.gen(function* () {
      const made = yield* post(`${API}/guilds/${guild.id}/channels`, body, token)
      expect(made.status).toBe(201)
      return ((yield* json(made)) as { id: string }).id
    })

  /** The dispatches of the given types published while `action` runs (the first `n`). */
  const dispatchesDuring = <A, E, R>(types: ReadonlyArray<string>, n: number, action: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const h = yield* TestHost.TestHost
      const bus = yield* h.run(Effect.service(EventBus.EventBus))
      const fiber = yield* bus.events.pipe(
        Stream.filter((event) => types.includes(event.type)),
        Stream.take(n),
        Stream.runCollect,
        Effect.forkChild
      )
      yield* Effect.yieldNow
      const result = yield* action
      return { result, events: yield* Fiber.join(fiber) }
    })

  describe("Messages: sending and reading", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("a member posts; the answer and MESSAGE_CREATE carry the v10 message object with the nonce", () =>
        Effect.gen(function* () {
          const { member, guild, channel } = yield* guildWithMember("msg_basic")
          const { result, events } = yield* dispatchesDuring(
            ["MESSAGE_CREATE"],
            1,
            postMessage(
              channel,
              {
                content: "Hello, world",
                nonce: "n-1",
                tts: false,
                embeds: [{ title: "Card", description: "text", color: 0x00ff00, fields: [{ name: "a", value: "b" }] }]
              },
              member.access_token
            )
          )
          const sent = yield* answer(result)
          expect(sent).toMatchObject({
            status: 200,
            body: {
              channel_id: channel,
              guild_id: guild.id,
              content: "Hello, world",
              nonce: "n-1",
              author: { id: member.user_id, bot: false },
              edited_timestamp: null,
              tts: false,
              mention_everyone: false,
              mentions: [],
              mention_roles: [],
              attachments: [],
              embeds: [{ title: "Card", description: "text", color: 0x00ff00, fields: [{ name: "a", value: "b" }] }],
              pinned: false,
              type: 0,
              flags: 0,
              components: []
            }
          })
          const body = sent.body as MessageBody & { timestamp: string }
          expect(body.id).toMatch(/^\d{17,20}$/)
          expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false)
          expect(events[0]).toMatchObject({
            type: "MESSAGE_CREATE",
            guildIds: [guild.id],
            data: { id: body.id, nonce: "n-1" }
          })
          // read back: no nonce outside its creation
          const read = yield* answer(
            yield* send("GET", `${API}/channels/${channel}/messages/${body.id}`, undefined, member.access_token)
          )
          expect(read).toMatchObject({ status: 200, body: { id: body.id, content: "Hello, world" } })
          expect(Object.keys(read.body as object)).not.toContain("nonce")
        })
      )

      it.effect("history pages newest first: default 50, limit, before, after, around; limits are validated", () =>
        Effect.gen(function* () {
          const { owner, member, channel } = yield* guildWithMember("msg_pages")
          const written: Array<string> = []
          for (let i = 0; i < 55; i++)
            written.push((yield* say(channel, `m${i}`, i % 2 === 0 ? owner.access_token : member.access_token)).id)
          const list = (query: string) =>
            Effect.map(
              Effect.flatMap(
                send("GET", `${API}/channels/${channel}/messages${query}`, undefined, member.access_token),
                json
              ),
              (body) => (body as ReadonlyArray<MessageBody>).map((m) => m.id)
            )
          const newestFirst = [...written].reverse()
          expect(yield* list("")).toEqual(newestFirst.slice(0, 50))
          expect(yield* list("?limit=100")).toEqual(newestFirst)
          expect(yield* list("?limit=3")).toEqual(newestFirst.slice(0, 3))
          expect(yield* list(`?before=${written[10]}&limit=2`)).toEqual([written[9], written[8]])
          expect(yield* list(`?after=${written[10]}&limit=2`)).toEqual([written[12], written[11]])
          expect(yield* list(`?around=${written[10]}&limit=3`)).toEqual([written[11], written[10], written[9]])
          for (const bad of ["?limit=0", "?limit=101", "?limit=x", "?before=abc", "?after=99999999999999999999999"]) {
            expect([
              bad,
              yield* code(
                yield* send("GET", `${API}/channels/${channel}/messages${bad}`, undefined, member.access_token)
              )
            ]).toEqual([bad, { status: 400, code: 50035 }])
          }
        })
      )

      it.effect(
        "refusals: empty, too long, too many embeds, NUL, unknown channel or message, strangers, voice channels",
        () =>
          Effect.gen(function* () {
            const { owner, member, guild, channel } = yield* guildWithMember("msg_refuse")
            const stranger = yield* user("msg_stranger")
            const refusals: ReadonlyArray<readonly [string, unknown, string, { status: number; code: number }]> = [
              ["empty", {}, member.access_token, { status: 400, code: 50006 }],
              ["blank", { content: "   " }, member.access_token, { status: 400, code: 50006 }],
              ["no embeds", { content: "", embeds: [] }, member.access_token, { status: 400, code: 50006 }],
              ["too long", { content: "x".repeat(2001) }, member.access_token, { status: 400, code: 50035 }],
              [
                "eleven embeds",
                { embeds: Array.from({ length: 11 }, () => ({ title: "t" })) },
                member.access_token,
                { status: 400, code: 50035 }
              ],
              [
                "embed text past 6000",
                { embeds: [{ description: "d".repeat(4096) }, { description: "d".repeat(2000) }] },
                member.access_token,
                { status: 400, code: 50035 }
              ],
              ["NUL", { content: "a\u0000b" }, member.access_token, { status: 400, code: 50035 }],
              ["bad nonce", { content: "x", nonce: "n".repeat(26) }, member.access_token, { status: 400, code: 50035 }],
              ["stranger", { content: "hi" }, stranger.access_token, { status: 403, code: 50001 }]
            ]
            for (const [name, body, token, expected] of refusals) {
              expect([name, yield* code(yield* postMessage(channel, body, token))]).toEqual([name, expected])
            }
            expect(
              yield* code(yield* postMessage("1311000000000000999", { content: "hi" }, member.access_token))
            ).toEqual({ status: 404, code: 10003 })
            expect(
              yield* code(yield* postMessage("99999999999999999999999", { content: "hi" }, member.access_token))
            ).toEqual({ status: 400, code: 50035 })
            expect(
              yield* code(
                yield* send(
                  "GET",
                  `${API}/channels/${channel}/messages/1311000000000000999`,
                  undefined,
                  member.access_token
                )
              )
            ).toEqual({ status: 404, code: 10008 })
            expect(
              yield* code(yield* send("GET", `${API}/channels/${channel}/messages`, undefined, stranger.access_token))
            ).toEqual({ status: 403, code: 50001 })
            const voice = yield* newChannel(guild, owner.access_token, { name: "Voice", type: 2 })
            expect(yield* code(yield* postMessage(voice, { content: "hi" }, owner.access_token))).toEqual({
              status: 400,
              code: 50024
            })
            // an embed alone is a message
            expect((yield* postMessage(channel, { embeds: [{ title: "only" }] }, member.access_token)).status).toBe(200)
          })
      )

      it.effect(
        "an embed's links and images are well-formed http or https addresses, else 50035 naming the field",
        () =>
          Effect.gen(function* () {
            const { member, channel } = yield* guildWithMember("msg_embed_urls")
            const at = (embed: Record<string, unknown>) =>
              postMessage(channel, { embeds: [embed] }, member.access_token)
            for (const [place, embed, errors] of [
              ["url", { title: "t", url: "javascript:alert(1)" }, { url: {} }],
              ["image", { image: { url: "data:text/html,<script>alert(1)</script>" } }, { image: { url: {} } }],
              ["thumbnail", { thumbnail: { url: "file:///etc/passwd" } }, { thumbnail: { url: {} } }],
              ["footer", { footer: { text: "f", icon_url: "vbscript:x" } }, { footer: { icon_url: {} } }],
              ["author url", { author: { name: "a", url: "ftp://example.com/" } }, { author: { url: {} } }],
              ["author icon", { author: { name: "a", icon_url: "not a url" } }, { author: { icon_url: {} } }]
            ] as const) {
              const refused = yield* answer(yield* at(embed))
              expect([place, refused]).toMatchObject([
                place,
                { status: 400, body: { code: 50035, errors: { embeds: { 0: errors } } } }
              ])
            }
            const scheme = yield* answer(yield* at({ title: "t", url: "javascript:alert(1)" }))
            expect(scheme.body).toMatchObject({
              errors: { embeds: { 0: { url: { _errors: [{ code: "URL_TYPE_INVALID_SCHEME" }] } } } }
            })
            // not an address: one error, the scheme is not judged too
            const malformed = yield* answer(yield* at({ title: "t", url: "not a url" }))
            const errors = malformed.body as {
              errors: { embeds: { 0: { url: { _errors: Array<{ code: string }> } } } }
            }
            expect(errors.errors.embeds[0].url._errors.map((error) => error.code)).toEqual(["URL_TYPE_INVALID_URL"])
            const https = "https://example.com/a.png?size=64"
            const accepted = yield* answer(
              yield* at({
                title: "t",
                url: "http://example.com/page",
                image: { url: https },
                thumbnail: { url: https },
                footer: { text: "f", icon_url: https },
                author: { name: "a", url: "https://example.com/", icon_url: https }
              })
            )
            expect(accepted).toMatchObject({
              status: 200,
              body: { embeds: [{ url: "http://example.com/page", image: { url: https }, author: { icon_url: https } }] }
            })
          })
      )

      it.effect(
        "Send Messages denied by an overwrite answers 50013; hidden channels 50001; without history, pages are empty",
        () =>
          Effect.gen(function* () {
            const { owner, member, guild } = yield* guildWithMember("msg_perms")
            const quiet = yield* newChannel(guild, owner.access_token, {
              name: "announcements",
              permission_overwrites: [{ id: guild.id, type: 0, deny: String(1 << 11) }]
            })
            expect(yield* code(yield* postMessage(quiet, { content: "hi" }, member.access_token))).toEqual({
              status: 403,
              code: 50013
            })
            expect((yield* postMessage(quiet, { content: "news" }, owner.access_token)).status).toBe(200)
            expect(yield* code(yield* post(`${API}/channels/${quiet}/typing`, undefined, member.access_token))).toEqual(
              { status: 403, code: 50013 }
            )
            const hidden = yield* newChannel(guild, owner.access_token, {
              name: "staff",
              permission_overwrites: [{ id: guild.id, type: 0, deny: String(1 << 10) }]
            })
            expect(yield* code(yield* postMessage(hidden, { content: "hi" }, member.access_token))).toEqual({
              status: 403,
              code: 50001
            })
            const noHistory = yield* newChannel(guild, owner.access_token, {
              name: "ephemeral",
              permission_overwrites: [{ id: guild.id, type: 0, deny: String(1 << 16) }]
            })
            const sent = yield* say(noHistory, "now you see it", owner.access_token)
            expect(
              yield* json(yield* send("GET", `${API}/channels/${noHistory}/messages`, undefined, member.access_token))
            ).toEqual([])
            expect(
              yield* code(
                yield* send("GET", `${API}/channels/${noHistory}/messages/${sent.id}`, undefined, member.access_token)
              )
            ).toEqual({ status: 403, code: 50001 })
          })
      )

      it.effect("mentions follow the content and allowed_mentions; replies reference the message they answer", () =>
        Effect.gen(function* () {
          const { owner, member, guild, channel } = yield* guildWithMember("msg_mention")
          const role = (yield* json(
            yield* post(`${API}/guilds/${guild.id}/roles`, { name: "Team", mentionable: true }, owner.access_token)
          )) as { id: string }
          const all = yield* say(
            channel,
            `hi <@${owner.user_id}> and <@!${member.user_id}>, <@&${role.id}> @everyone <@1311000000000000999>`,
            member.access_token
          )
          expect(all.mentions.map((u) => u.id)).toEqual([owner.user_id, member.user_id])
          expect(all.mention_roles).toEqual([role.id])
          expect(all.mention_everyone).toBe(true)
          const none = (yield* json(
            yield* postMessage(
              channel,
              { content: `<@${owner.user_id}> <@&${role.id}> @here`, allowed_mentions: { parse: [] } },
              member.access_token
            )
          )) as MessageBody
          expect([none.mentions, none.mention_roles, none.mention_everyone]).toEqual([[], [], false])
          const some = (yield* json(
            yield* postMessage(
              channel,
              { content: `<@${owner.user_id}> <@${member.user_id}>`, allowed_mentions: { users: [member.user_id] } },
              member.access_token
            )
          )) as MessageBody
          expect(some.mentions.map((u) => u.id)).toEqual([member.user_id])

          const original = yield* say(channel, "question?", owner.access_token)
          const reply = (yield* answer(
            yield* postMessage(
              channel,
              { content: "answer", message_reference: { message_id: original.id } },
              member.access_token
            )
          )) as { status: number; body: MessageBody }
          expect(reply.status).toBe(200)
          expect(reply.body).toMatchObject({
            type: 19,
            message_reference: { message_id: original.id, channel_id: channel, guild_id: guild.id },
            referenced_message: { id: original.id, content: "question?" },
            mentions: [{ id: owner.user_id }]
          })
          const quiet = (yield* json(
            yield* postMessage(
              channel,
              {
                content: "shh",
                message_reference: { message_id: original.id },
                allowed_mentions: { parse: [], replied_user: false }
              },
              member.access_token
            )
          )) as MessageBody
          expect(quiet.mentions).toEqual([])
          expect(
            yield* answer(
              yield* postMessage(
                channel,
                { content: "to nothing", message_reference: { message_id: "1311000000000000999" } },
                member.access_token
              )
            )
          ).toMatchObject({ status: 400, body: { code: 50035, errors: { message_reference: { message_id: {} } } } })
          // fail_if_not_exists: false sends it as a plain message
          expect(
            yield* answer(
              yield* postMessage(
                channel,
                {
                  content: "plain",
                  message_reference: { message_id: "1311000000000000999", fail_if_not_exists: false }
                },
                member.access_token
              )
            )
          ).toMatchObject({ status: 200, body: { type: 0 } })
          // the reply shows its reference as gone once the original is deleted
          expect(
            (yield* send("DELETE", `${API}/channels/${channel}/messages/${original.id}`, undefined, owner.access_token))
              .status
          ).toBe(204)
          expect(
            yield* json(
              yield* send("GET", `${API}/channels/${channel}/messages/${reply.body.id}`, undefined, member.access_token)
            )
          ).toMatchObject({
            referenced_message: null
          })
        })
      )
    })
  })

  describe("Messages: edits, deletes, typing and pins", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("the author edits (50005 for others, 50006 emptied); the author or Manage Messages deletes", () =>
        Effect.gen(function* () {
          const { owner, member, guild, channel } = yield* guildWithMember("msg_edit")
          const mine = yield* say(channel, "first", member.access_token)
          const path = `${API}/channels/${channel}/messages/${mine.id}`
          const { result, events } = yield* dispatchesDuring(
            ["MESSAGE_UPDATE"],
            1,
            send("PATCH", path, { content: "second" }, member.access_token)
          )
          const edited = yield* answer(result)
          expect(edited).toMatchObject({ status: 200, body: { id: mine.id, content: "second" } })
          expect((edited.body as MessageBody).edited_timestamp).not.toBeNull()
          expect(events[0]).toMatchObject({
            type: "MESSAGE_UPDATE",
            guildIds: [guild.id],
            data: { id: mine.id, content: "second" }
          })
          expect(yield* code(yield* send("PATCH", path, { content: "stolen" }, owner.access_token))).toEqual({
            status: 403,
            code: 50005
          })
          expect(yield* code(yield* send("PATCH", path, { content: "" }, member.access_token))).toEqual({
            status: 400,
            code: 50006
          })
          expect(yield* code(yield* send("PATCH", path, { content: "x".repeat(2001) }, member.access_token))).toEqual({
            status: 400,
            code: 50035
          })
          expect(
            yield* code(
              yield* send(
                "PATCH",
                `${API}/channels/${channel}/messages/1311000000000000999`,
                { content: "x" },
                member.access_token
              )
            )
          ).toEqual({ status: 404, code: 10008 })

          // another member's message: 50013 without Manage Messages; the owner may
          const theirs = yield* say(channel, "owner's", owner.access_token)
          expect(
            yield* code(
              yield* send("DELETE", `${API}/channels/${channel}/messages/${theirs.id}`, undefined, member.access_token)
            )
          ).toEqual({ status: 403, code: 50013 })
          const deleted = yield* dispatchesDuring(
            ["MESSAGE_DELETE"],
            1,
            send("DELETE", path, undefined, owner.access_token)
          )
          expect(deleted.result.status).toBe(204)
          expect(deleted.events[0]).toMatchObject({
            type: "MESSAGE_DELETE",
            data: { id: mine.id, channel_id: channel, guild_id: guild.id }
          })
          expect(yield* code(yield* send("GET", path, undefined, member.access_token))).toEqual({
            status: 404,
            code: 10008
          })
          expect(yield* code(yield* send("DELETE", path, undefined, owner.access_token))).toEqual({
            status: 404,
            code: 10008
          })
          // one's own, without any permission
          const again = yield* say(channel, "bye", member.access_token)
          expect(
            (yield* send("DELETE", `${API}/channels/${channel}/messages/${again.id}`, undefined, member.access_token))
              .status
          ).toBe(204)
        })
      )

      it.effect("typing answers 204 and publishes TYPING_START", () =>
        Effect.gen(function* () {
          const { member, guild, channel } = yield* guildWithMember("msg_typing")
          const { result, events } = yield* dispatchesDuring(
            ["TYPING_START"],
            1,
            post(`${API}/channels/${channel}/typing`, undefined, member.access_token)
          )
          expect(result.status).toBe(204)
          expect(events[0]).toMatchObject({
            type: "TYPING_START",
            guildIds: [guild.id],
            data: { channel_id: channel, guild_id: guild.id, user_id: member.user_id, timestamp: expect.any(Number) }
          })
        })
      )

      it.effect(
        "pins: Manage Messages pins and unpins (CHANNEL_PINS_UPDATE), the list is latest first, 30003 past 50",
        () =>
          Effect.gen(function* () {
            const { owner, member, guild, channel } = yield* guildWithMember("msg_pins")
            const first = yield* say(channel, "pin me", member.access_token)
            const pinPath = (id: string) => `${API}/channels/${channel}/pins/${id}`
            expect(yield* code(yield* send("PUT", pinPath(first.id), undefined, member.access_token))).toEqual({
              status: 403,
              code: 50013
            })
            const pinned = yield* dispatchesDuring(
              ["CHANNEL_PINS_UPDATE"],
              1,
              send("PUT", pinPath(first.id), undefined, owner.access_token)
            )
            expect(pinned.result.status).toBe(204)
            expect(pinned.events[0]).toMatchObject({
              type: "CHANNEL_PINS_UPDATE",
              data: { guild_id: guild.id, channel_id: channel, last_pin_timestamp: expect.any(String) }
            })
            // pinning again changes nothing
            expect((yield* send("PUT", pinPath(first.id), undefined, owner.access_token)).status).toBe(204)
            const pins = (yield* json(
              yield* send("GET", `${API}/channels/${channel}/pins`, undefined, member.access_token)
            )) as ReadonlyArray<MessageBody>
            expect(pins.map((m) => [m.id, m.pinned])).toEqual([[first.id, true]])
            expect(
              yield* code(yield* send("PUT", pinPath("1311000000000000999"), undefined, owner.access_token))
            ).toEqual({ status: 404, code: 10008 })

            for (let i = 1; i < 50; i++) {
              const m = yield* say(channel, `pin ${i}`, owner.access_token)
              expect((yield* send("PUT", pinPath(m.id), undefined, owner.access_token)).status).toBe(204)
            }
            const extra = yield* say(channel, "one too many", owner.access_token)
            expect(yield* answer(yield* send("PUT", pinPath(extra.id), undefined, owner.access_token))).toEqual({
              status: 400,
              body: { code: 30003, message: "Maximum number of pins reached (50)" }
            })
            const all = (yield* json(
              yield* send("GET", `${API}/channels/${channel}/pins`, undefined, owner.access_token)
            )) as ReadonlyArray<MessageBody>
            expect(all).toHaveLength(50)
            expect(all.at(-1)?.id).toBe(first.id)
            const unpinned = yield* dispatchesDuring(
              ["CHANNEL_PINS_UPDATE"],
              1,
              send("DELETE", pinPath(first.id), undefined, owner.access_token)
            )
            expect(unpinned.result.status).toBe(204)
            expect((yield* send("PUT", pinPath(extra.id), undefined, owner.access_token)).status).toBe(204)
            expect(yield* code(yield* send("DELETE", pinPath(first.id), undefined, member.access_token))).toEqual({
              status: 403,
              code: 50013
            })
          })
      )
    })
  })

  describe("Messages: slow mode, age-restricted channels, verification levels, bots", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect(
        "slow mode answers 429 20016 until the member's window passes; racing posts let one through; the owner is exempt",
        () =>
          Effect.gen(function* () {
            const testHost = yield* TestHost.TestHost
            const { owner, member, guild } = yield* guildWithMember("msg_slow")
            const slow = yield* newChannel(guild, owner.access_token, { name: "slow", rate_limit_per_user: 10 })
            yield* say(slow, "one", member.access_token)
            yield* testHost.adjustClock("3 seconds")
            const early = yield* postMessage(slow, { content: "two" }, member.access_token)
            // bot libraries wait as long as Retry-After says (whole seconds, rounded up), then retry
            expect([early.headers.get("retry-after"), early.headers.get("x-ratelimit-scope")]).toEqual(["7", "user"])
            expect(yield* answer(early)).toMatchObject({
              status: 429,
              body: { code: 20016, message: "Slowmode rate limit" }
            })
            yield* say(slow, "owner one", owner.access_token)
            yield* say(slow, "owner two", owner.access_token)
            yield* testHost.adjustClock("10 seconds")
            const raced = yield* Effect.all(
              Array.from({ length: 5 }, (_, i) => postMessage(slow, { content: `race ${i}` }, member.access_token)),
              { concurrency: "unbounded" }
            )
            expect(raced.map((r) => r.status).sort()).toEqual([200, 429, 429, 429, 429])
          })
      )

      it.effect(
        "age-restricted channels refuse users under 18 (20024) to post, read and type; adults and bots pass",
        () =>
          Effect.gen(function* () {
            const { owner, guild } = yield* guildWithMember("msg_nsfw")
            const young = yield* user("msg_young", { date_of_birth: "2010-06-01" })
            const invite = yield* inviteTo(owner.access_token, guild.system_channel_id)
            expect((yield* accept(young.access_token, invite)).status).toBe(200)
            const adult = yield* newChannel(guild, owner.access_token, { name: "after-dark", nsfw: true })
            const refused = { status: 403, code: 20024 }
            expect(yield* code(yield* postMessage(adult, { content: "hi" }, young.access_token))).toEqual(refused)
            expect(
              yield* code(yield* send("GET", `${API}/channels/${adult}/messages`, undefined, young.access_token))
            ).toEqual(refused)
            expect(yield* code(yield* post(`${API}/channels/${adult}/typing`, undefined, young.access_token))).toEqual(
              refused
            )
            expect((yield* postMessage(adult, { content: "grown-up" }, owner.access_token)).status).toBe(200)
            // the young member still writes elsewhere
            expect((yield* postMessage(guild.system_channel_id, { content: "hi" }, young.access_token)).status).toBe(
              200
            )
          })
      )

      it.effect(
        "verification levels: 40002 for a new account (level 2) and a new member (level 3) until enough time passed",
        () =>
          Effect.gen(function* () {
            const testHost = yield* TestHost.TestHost
            const owner = yield* user("msg_verify_o")
            const guild = yield* createGuild(owner.access_token, "Strict Server")
            const member = yield* user("msg_verify_m")
            const invite = yield* inviteTo(owner.access_token, guild.system_channel_id)
            expect((yield* accept(member.access_token, invite)).status).toBe(200)
            // raised after the member joined (joining checks the level too, in the guilds domain)
            const raised = yield* send(
              "PATCH",
              `${API}/guilds/${guild.id}`,
              { verification_level: 3 },
              owner.access_token
            )
            expect(raised.status).toBe(200)
            const channel = guild.system_channel_id
            expect(yield* answer(yield* postMessage(channel, { content: "hi" }, member.access_token))).toEqual({
              status: 403,
              body: { code: 40002, message: "You need to verify your account" }
            })
            expect((yield* postMessage(channel, { content: "owner" }, owner.access_token)).status).toBe(200)
            yield* testHost.adjustClock("5 minutes")
            // level 3 also asks ten minutes in the guild
            expect(yield* code(yield* postMessage(channel, { content: "hi" }, member.access_token))).toEqual({
              status: 403,
              code: 40002
            })
            yield* testHost.adjustClock("5 minutes")
            // (access tokens last an hour)
            expect(
              yield* answer(yield* postMessage(channel, { content: "finally" }, member.access_token))
            ).toMatchObject({
              status: 200
            })
          })
      )

      it.effect("a bot in the guild posts, reads and is shown as a bot", () =>
        Effect.gen(function* () {
          const _testHost = yield* TestHost.TestHost
          const { owner, member, guild, channel } = yield* guildWithMember("msg_bot")
          const app = yield* createApplication(owner.access_token, "Chatty Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: app.name })
          const sent = yield* answer(
            yield* asBot("POST", `${API}/channels/${channel}/messages`, token, { content: "beep" })
          )
          expect(sent).toMatchObject({ status: 200, body: { content: "beep", author: { id: app.id, bot: true } } })
          const seen = (yield* json(
            yield* send("GET", `${API}/channels/${channel}/messages?limit=1`, undefined, member.access_token)
          )) as ReadonlyArray<MessageBody>
          expect(seen.map((m) => [m.content, m.author.bot])).toEqual([["beep", true]])
          expect((yield* asBot("GET", `${API}/channels/${channel}/messages`, token)).status).toBe(200)
          expect((yield* asBot("POST", `${API}/channels/${channel}/typing`, token)).status).toBe(204)
        })
      )
    })
  })

  describe("Messages: personal data", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("the data export lists a user's messages; deleting the account deletes them", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const { owner, member, channel } = yield* guildWithMember("msg_data")
          const mine = yield* say(channel, "my words", member.access_token)
          const theirs = yield* say(channel, "the owner's words", owner.access_token)
          const memberId = Snowflake.Snowflake.make(member.user_id)
          expect((yield* post(`${API}/users/@me/export`, undefined, member.access_token)).status).toBe(200)
          yield* testHost.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
          const ready = (yield* json(
            yield* send("GET", `${API}/users/@me/export`, undefined, member.access_token)
          )) as {
            url: string
          }
          const download = yield* testHost.fetch(ready.url)
          const files = unzip(new Uint8Array(yield* Effect.promise(() => download.arrayBuffer())))
          const exported = JSON.parse(files["messages.json"] ?? "null")
          expect(exported).toMatchObject([{ id: mine.id, channel_id: channel, content: "my words" }])
          expect(exported).toHaveLength(1)
          expect((yield* post(`${API}/users/@me/delete`, { password: PASSWORD }, member.access_token)).status).toBe(200)
          yield* testHost.run(
            Effect.gen(function* () {
              const deletions = yield* DeletionsRepo.DeletionsRepo
              yield* deletions.cancel(memberId)
              const now = yield* DateTime.now
              yield* deletions.request({ userId: memberId, state: "pending", requestedAt: now, deleteAt: now })
              const carried = yield* Effect.flatMap(
                Effect.service(AccountDeletion.AccountDeletion),
                (d) => d.carryOutDue
              )
              expect(carried).toBe(1)
            })
          )
          expect(
            yield* code(
              yield* send("GET", `${API}/channels/${channel}/messages/${mine.id}`, undefined, owner.access_token)
            )
          ).toEqual({ status: 404, code: 10008 })
          expect(
            (yield* send("GET", `${API}/channels/${channel}/messages/${theirs.id}`, undefined, owner.access_token))
              .status
          ).toBe(200)
        })
      )
    })
  })
}
