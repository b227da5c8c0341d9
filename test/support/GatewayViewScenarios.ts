/**
 * What a gateway session may see, through a real socket and the public routes: guild dispatches
 * about one channel (messages, typing, pins, channel events) reach only members who may view that
 * channel (overwrites and roles, cached per guild and member and dropped when they change), and a
 * bot without MESSAGE_CONTENT reads a reply's `referenced_message` emptied as well. Run on memory
 * (test/gateway-views.test.ts) and on PostgreSQL (adapters/postgres/test/GatewayViews.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import type { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, post, register, send } from "./Accounts.ts"
import { asBot } from "./ApplicationScenarios.ts"
import { botInGuild } from "./Bots.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { guildWith } from "./Guilds.ts"

const GUILDS = 1 << 0
const GUILD_MESSAGES = 1 << 9
const GUILD_MESSAGE_TYPING = 1 << 11
const VIEW_CHANNEL = String(1 << 10)

export const connect = () =>
  Effect.flatMap(Effect.service(GatewayServer.Listening), (listening) =>
    Effect.promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`))
  )
export const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
export const identify = (token: string, extra: Record<string, unknown> = {}) => ({
  op: 2,
  d: { token, properties: { os: "linux", browser: "test", device: "test" }, ...extra }
})

/** A session that has received READY and its guilds. */
export const ready = (token: string, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const client = yield* connect()
    client.send(identify(token, extra))
    yield* promise(() => client.nextDispatch("READY"))
    yield* promise(() => client.unread(100))
    return client
  })

const names = (frames: ReadonlyArray<GatewayServer.Frame>) => frames.filter((f) => f.op === 0).map((f) => f.t)

export const gatewayViewScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) =>
  describe("what a gateway session sees", () => {
    layer(GatewayServer.layer({ repositories: repositories?.() }), { timeout: "60 seconds" })((it) => {
      it.effect(
        "channel dispatches reach only members who may view the channel; overwrite and role changes apply",
        () =>
          Effect.gen(function* () {
            const owner = yield* register("+79050019001", "gwv_owner")
            const member = yield* register("+79050019002", "gwv_member")
            const guild = yield* guildWith(owner.access_token, [member.access_token], "Views Guild")
            const memberClient = yield* ready(member.access_token)

            // a channel @everyone may not see: its creation does not reach the member
            const made = yield* post(
              `/api/v10/guilds/${guild.id}/channels`,
              { name: "secret", permission_overwrites: [{ id: guild.id, type: 0, allow: "0", deny: VIEW_CHANNEL }] },
              owner.access_token
            )
            expect(made.status).toBe(201)
            const secret = ((yield* json(made)) as { id: string }).id
            const say = (channel: string, content: string) =>
              Effect.gen(function* () {
                const posted = yield* post(`/api/v10/channels/${channel}/messages`, { content }, owner.access_token)
                expect(posted.status).toBe(200)
                return ((yield* json(posted)) as { id: string }).id
              })

            // messages, typing, pins and edits in it do not reach the member; the public channel's do
            const hidden = yield* say(secret, "hidden words")
            expect((yield* post(`/api/v10/channels/${secret}/typing`, {}, owner.access_token)).status).toBe(204)
            expect(
              (yield* send("PUT", `/api/v10/channels/${secret}/pins/${hidden}`, undefined, owner.access_token)).status
            ).toBe(204)
            const renamed = yield* send(
              "PATCH",
              `/api/v10/channels/${secret}`,
              { name: "still-secret" },
              owner.access_token
            )
            expect(renamed.status).toBe(200)
            const open = yield* say(guild.system_channel_id, "open words")
            const seen = yield* promise(() => memberClient.nextDispatch("MESSAGE_CREATE"))
            expect(seen.d).toMatchObject({ id: open, content: "open words" })
            const before = yield* promise(() => memberClient.unread())
            expect(names(before)).toEqual([])

            // an overwrite for the member lets them see it: CHANNEL_UPDATE and its messages arrive
            const allowed = yield* send(
              "PUT",
              `/api/v10/channels/${secret}/permissions/${member.user_id}`,
              { type: 1, allow: VIEW_CHANNEL, deny: "0" },
              owner.access_token
            )
            expect(allowed.status).toBe(204)
            const update = yield* promise(() => memberClient.nextDispatch("CHANNEL_UPDATE"))
            expect(update.d).toMatchObject({ id: secret })
            const now = yield* say(secret, "now visible")
            expect((yield* promise(() => memberClient.nextDispatch("MESSAGE_CREATE"))).d).toMatchObject({ id: now })
            expect((yield* post(`/api/v10/channels/${secret}/typing`, {}, owner.access_token)).status).toBe(204)
            expect((yield* promise(() => memberClient.nextDispatch("TYPING_START"))).d).toMatchObject({
              channel_id: secret
            })

            // taken away again, then given back through a role the member is given
            const removed = yield* send(
              "DELETE",
              `/api/v10/channels/${secret}/permissions/${member.user_id}`,
              undefined,
              owner.access_token
            )
            expect(removed.status).toBe(204)
            yield* say(secret, "hidden again")
            const roleMade = yield* post(`/api/v10/guilds/${guild.id}/roles`, { name: "insiders" }, owner.access_token)
            expect(roleMade.status).toBe(200)
            const role = ((yield* json(roleMade)) as { id: string }).id
            const roleAllowed = yield* send(
              "PUT",
              `/api/v10/channels/${secret}/permissions/${role}`,
              { type: 0, allow: VIEW_CHANNEL, deny: "0" },
              owner.access_token
            )
            expect(roleAllowed.status).toBe(204)
            yield* say(secret, "insiders only")
            const between = yield* promise(() => memberClient.unread())
            expect(between.filter((f) => f.t === "MESSAGE_CREATE")).toEqual([])
            const given = yield* send(
              "PATCH",
              `/api/v10/guilds/${guild.id}/members/${member.user_id}`,
              { roles: [role] },
              owner.access_token
            )
            expect(given.status).toBe(200)
            yield* promise(() => memberClient.nextDispatch("GUILD_MEMBER_UPDATE"))
            const insider = yield* say(secret, "welcome in")
            expect((yield* promise(() => memberClient.nextDispatch("MESSAGE_CREATE"))).d).toMatchObject({
              id: insider,
              content: "welcome in"
            })

            // the role loses the overwrite's effect when @everyone's deny is joined by the role's own deny
            const roleDenied = yield* send(
              "PUT",
              `/api/v10/channels/${secret}/permissions/${role}`,
              { type: 0, allow: "0", deny: VIEW_CHANNEL },
              owner.access_token
            )
            expect(roleDenied.status).toBe(204)
            yield* say(secret, "gone dark")
            const last = yield* say(guild.system_channel_id, "last open")
            const after = yield* promise(() => memberClient.nextDispatch("MESSAGE_CREATE"))
            expect(after.d).toMatchObject({ id: last })
            yield* promise(() => memberClient.close())
          })
      )

      it.effect("a bot without MESSAGE_CONTENT reads replies with the referenced message emptied too", () =>
        Effect.gen(function* () {
          const { owner, guild, app, token } = yield* botInGuild("+79050019010", "gwvref")
          const bot = yield* ready(token, { intents: GUILDS | GUILD_MESSAGES | GUILD_MESSAGE_TYPING })
          const channel = guild.system_channel_id
          const posted = yield* post(
            `/api/v10/channels/${channel}/messages`,
            { content: "the original", embeds: [{ title: "kept away" }] },
            owner.access_token
          )
          const original = ((yield* json(posted)) as { id: string }).id
          yield* promise(() => bot.nextDispatch("MESSAGE_CREATE"))

          // a reply that mentions the bot: its own content stays, the referenced message is emptied
          const reply = yield* post(
            `/api/v10/channels/${channel}/messages`,
            { content: `<@${app.id}> see above`, message_reference: { message_id: original } },
            owner.access_token
          )
          expect(reply.status).toBe(200)
          const got = yield* promise(() => bot.nextDispatch("MESSAGE_CREATE"))
          expect(got.d).toMatchObject({
            content: `<@${app.id}> see above`,
            referenced_message: { id: original, content: "", embeds: [], attachments: [], components: [] }
          })

          // a plain reply to the bot's own message: the reply is emptied, the bot's own message is not
          const own = yield* asBot("POST", `/api/v10/channels/${channel}/messages`, token, { content: "bot words" })
          const ownId = ((yield* json(own)) as { id: string }).id
          yield* promise(() => bot.nextDispatch("MESSAGE_CREATE"))
          yield* post(
            `/api/v10/channels/${channel}/messages`,
            { content: "answering the bot", message_reference: { message_id: ownId }, allowed_mentions: { parse: [] } },
            owner.access_token
          )
          const answer = yield* promise(() => bot.nextDispatch("MESSAGE_CREATE"))
          expect(answer.d).toMatchObject({
            content: "",
            referenced_message: { id: ownId, content: "bot words" }
          })

          // the owner (a user) reads everything
          const ownerClient = yield* ready(owner.access_token)
          yield* post(
            `/api/v10/channels/${channel}/messages`,
            { content: "plain reply", message_reference: { message_id: original } },
            owner.access_token
          )
          expect((yield* promise(() => ownerClient.nextDispatch("MESSAGE_CREATE"))).d).toMatchObject({
            content: "plain reply",
            referenced_message: { content: "the original", embeds: [{ title: "kept away" }] }
          })
          yield* promise(() => bot.close())
          yield* promise(() => ownerClient.close())
        })
      )
    })
  })
