/**
 * What a gateway session may see, through a real socket and the public routes: guild dispatches
 * about one channel (messages, typing, pins, channel events) reach only members who may view that
 * channel (overwrites and roles, cached per guild and member and dropped when they change), and a
 * bot without MESSAGE_CONTENT reads a reply's `referenced_message` emptied as well, and op 8
 * REQUEST_GUILD_MEMBERS answers GUILD_MEMBERS_CHUNKs (by prefix, by ids, the whole list with the
 * intent, once per 30 s, else RATE_LIMITED). Run on memory
 * (test/gateway-views.test.ts) and on PostgreSQL (adapters/postgres/test/GatewayViews.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, post, register, send } from "./Accounts.ts"
import { asBot, createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { addBotToGuild, botInGuild } from "./Bots.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { accept, guildWith, inviteTo } from "./Guilds.ts"

const GUILDS = 1 << 0
const GUILD_MEMBERS = 1 << 1
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

            // an overwrite for the member lets them see it: it arrives as CHANNEL_CREATE (as on the
            // platform, not CHANNEL_UPDATE), then its messages
            const allowed = yield* send(
              "PUT",
              `/api/v10/channels/${secret}/permissions/${member.user_id}`,
              { type: 1, allow: VIEW_CHANNEL, deny: "0" },
              owner.access_token
            )
            expect(allowed.status).toBe(204)
            const appeared = yield* promise(() => memberClient.unread())
            expect(names(appeared)).toEqual(["CHANNEL_CREATE"])
            expect(appeared[0]?.d).toMatchObject({ id: secret, guild_id: guild.id, name: "still-secret" })
            // a further change of a channel they see is an update
            const retitled = yield* send("PATCH", `/api/v10/channels/${secret}`, { topic: "t" }, owner.access_token)
            expect(retitled.status).toBe(200)
            expect((yield* promise(() => memberClient.nextDispatch("CHANNEL_UPDATE"))).d).toMatchObject({ id: secret })
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
            const disappeared = yield* promise(() => memberClient.unread())
            expect(names(disappeared)).toEqual(["CHANNEL_DELETE"])
            expect(disappeared[0]?.d).toMatchObject({ id: secret, guild_id: guild.id })
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
            expect(names(between)).toEqual(["GUILD_ROLE_CREATE"])
            const given = yield* send(
              "PATCH",
              `/api/v10/guilds/${guild.id}/members/${member.user_id}`,
              { roles: [role] },
              owner.access_token
            )
            expect(given.status).toBe(200)
            // a user session has GUILD_MEMBERS: the member update, then the channel the role shows
            const joinedRole = yield* promise(() => memberClient.unread())
            expect(names(joinedRole)).toEqual(["GUILD_MEMBER_UPDATE", "CHANNEL_CREATE"])
            expect(joinedRole[1]?.d).toMatchObject({ id: secret })
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
            expect(names(yield* promise(() => memberClient.unread()))).toEqual(["CHANNEL_DELETE"])
            yield* say(secret, "gone dark")
            const last = yield* say(guild.system_channel_id, "last open")
            const after = yield* promise(() => memberClient.nextDispatch("MESSAGE_CREATE"))
            expect(after.d).toMatchObject({ id: last })
            yield* promise(() => memberClient.close())
          })
      )

      it.effect("role permissions and member roles hide and show channels: CHANNEL_DELETE / CHANNEL_CREATE", () =>
        Effect.gen(function* () {
          const owner = yield* register("+79050019031", "gwsh_owner")
          const member = yield* register("+79050019032", "gwsh_member")
          const guild = yield* guildWith(owner.access_token, [member.access_token], "Shift Guild")
          const memberClient = yield* ready(member.access_token)
          const ownerClient = yield* ready(owner.access_token)
          const made = yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "second" }, owner.access_token)
          const second = ((yield* json(made)) as { id: string }).id
          expect((yield* promise(() => memberClient.nextDispatch("CHANNEL_CREATE"))).d).toMatchObject({ id: second })
          yield* promise(() => ownerClient.unread())

          const listed = yield* send("GET", `/api/v10/guilds/${guild.id}/channels`, undefined, member.access_token)
          const channelIds = ((yield* json(listed)) as Array<{ id: string }>).map((c) => c.id).sort()
          expect(channelIds).toContain(second)
          const ids = (frames: ReadonlyArray<GatewayServer.Frame>) =>
            frames
              .filter((f) => f.t === "CHANNEL_CREATE" || f.t === "CHANNEL_DELETE")
              .map((f) => (f.d as { id: string }).id)
              .sort()
          const each = (name: string) => channelIds.map(() => name)

          // @everyone loses View Channel: the member loses every channel, the owner (all rights) nothing
          const everyone = (permissions: string) =>
            send("PATCH", `/api/v10/guilds/${guild.id}/roles/${guild.id}`, { permissions }, owner.access_token)
          expect((yield* everyone("0")).status).toBe(200)
          const hidden = yield* promise(() => memberClient.unread())
          expect(names(hidden)).toEqual(["GUILD_ROLE_UPDATE", ...each("CHANNEL_DELETE")])
          expect(ids(hidden)).toEqual(channelIds)
          expect(names(yield* promise(() => ownerClient.unread()))).toEqual(["GUILD_ROLE_UPDATE"])

          // a role with View Channel given to the member shows them again, and taken back hides them
          const roleMade = yield* post(
            `/api/v10/guilds/${guild.id}/roles`,
            { name: "viewers", permissions: VIEW_CHANNEL },
            owner.access_token
          )
          const role = ((yield* json(roleMade)) as { id: string }).id
          expect(names(yield* promise(() => memberClient.unread()))).toEqual(["GUILD_ROLE_CREATE"])
          const setRoles = (roles: ReadonlyArray<string>) =>
            send("PATCH", `/api/v10/guilds/${guild.id}/members/${member.user_id}`, { roles }, owner.access_token)
          expect((yield* setRoles([role])).status).toBe(200)
          const shown = yield* promise(() => memberClient.unread())
          expect(names(shown)).toEqual(["GUILD_MEMBER_UPDATE", ...each("CHANNEL_CREATE")])
          expect(ids(shown)).toEqual(channelIds)
          expect(shown.find((f) => f.t === "CHANNEL_CREATE" && (f.d as { id: string }).id === second)?.d).toMatchObject(
            { guild_id: guild.id, name: "second", type: 0 }
          )
          // the owner sees the role and the member update only
          expect(names(yield* promise(() => ownerClient.unread()))).toEqual([
            "GUILD_ROLE_CREATE",
            "GUILD_MEMBER_UPDATE"
          ])
          expect((yield* setRoles([])).status).toBe(200)
          expect(names(yield* promise(() => memberClient.unread()))).toEqual([
            "GUILD_MEMBER_UPDATE",
            ...each("CHANNEL_DELETE")
          ])
          // @everyone given View Channel back: every channel returns
          expect((yield* everyone(VIEW_CHANNEL)).status).toBe(200)
          const back = yield* promise(() => memberClient.unread())
          expect(names(back)).toEqual(["GUILD_ROLE_UPDATE", ...each("CHANNEL_CREATE")])

          yield* promise(() => memberClient.close())
          yield* promise(() => ownerClient.close())
        })
      )

      it.effect(
        "changes racing: the channels told (created minus deleted) end as the channels the member may open",
        () =>
          Effect.gen(function* () {
            const owner = yield* register("+79050019051", "gwrace_owner")
            const member = yield* register("+79050019052", "gwrace_member")
            const guild = yield* guildWith(owner.access_token, [member.access_token], "Race Guild")
            const listed = yield* send("GET", `/api/v10/guilds/${guild.id}/channels`, undefined, owner.access_token)
            const channelIds = ((yield* json(listed)) as Array<{ id: string }>).map((c) => c.id)
            const opens = (channel: string) =>
              Effect.map(
                send("GET", `/api/v10/channels/${channel}`, undefined, member.access_token),
                (r) => r.status === 200
              )
            const openable = Effect.map(
              Effect.forEach(channelIds, (id) => Effect.map(opens(id), (ok) => [id, ok] as const)),
              (pairs) => new Set(pairs.filter(([, ok]) => ok).map(([id]) => id))
            )
            const told = new Set(yield* openable)
            const client = yield* ready(member.access_token)
            const channel = channelIds.find((id) => id !== guild.system_channel_id) ?? guild.system_channel_id
            const roleMade = yield* post(
              `/api/v10/guilds/${guild.id}/roles`,
              { name: "racers", permissions: VIEW_CHANNEL },
              owner.access_token
            )
            const role = ((yield* json(roleMade)) as { id: string }).id
            const changes = [
              send("PATCH", `/api/v10/guilds/${guild.id}/roles/${guild.id}`, { permissions: "0" }, owner.access_token),
              send(
                "PUT",
                `/api/v10/channels/${channel}/permissions/${member.user_id}`,
                { type: 1, allow: "0", deny: VIEW_CHANNEL },
                owner.access_token
              ),
              send(
                "PATCH",
                `/api/v10/guilds/${guild.id}/members/${member.user_id}`,
                { roles: [role] },
                owner.access_token
              ),
              send(
                "DELETE",
                `/api/v10/channels/${channel}/permissions/${member.user_id}`,
                undefined,
                owner.access_token
              ),
              send("PATCH", `/api/v10/guilds/${guild.id}/members/${member.user_id}`, { roles: [] }, owner.access_token),
              send(
                "PUT",
                `/api/v10/channels/${guild.system_channel_id}/permissions/${member.user_id}`,
                { type: 1, allow: VIEW_CHANNEL, deny: "0" },
                owner.access_token
              ),
              send("PATCH", `/api/v10/guilds/${guild.id}/roles/${role}`, { permissions: "0" }, owner.access_token),
              send(
                "PATCH",
                `/api/v10/guilds/${guild.id}/members/${member.user_id}`,
                { roles: [role] },
                owner.access_token
              )
            ]
            const answers = yield* Effect.all(changes, { concurrency: "unbounded" })
            for (const answer of answers) expect([200, 204]).toContain(answer.status)
            // what arrived, applied in order to what the member could open before
            const frames = yield* promise(() => client.unread(800))
            for (const frame of frames) {
              const id = (frame.d as { id?: string } | null)?.id
              if (frame.t === "CHANNEL_CREATE" && id !== undefined) told.add(id)
              if (frame.t === "CHANNEL_DELETE" && id !== undefined) told.delete(id)
            }
            expect([...told].sort()).toEqual([...(yield* openable)].sort())
            yield* promise(() => client.close())
          })
      )

      it.effect("a bot with GUILDS but not GUILD_MEMBERS still learns of channels a role change shows or hides", () =>
        Effect.gen(function* () {
          const { owner, guild, app, token } = yield* botInGuild("+79050019061", "gwbsh")
          const bot = yield* ready(token, { intents: GUILDS })
          const listed = yield* send("GET", `/api/v10/guilds/${guild.id}/channels`, undefined, owner.access_token)
          const count = ((yield* json(listed)) as Array<unknown>).length
          expect(
            (yield* send(
              "PATCH",
              `/api/v10/guilds/${guild.id}/roles/${guild.id}`,
              { permissions: "0" },
              owner.access_token
            )).status
          ).toBe(200)
          const hidden = yield* promise(() => bot.unread())
          expect(names(hidden)).toEqual(["GUILD_ROLE_UPDATE", ...Array.from({ length: count }, () => "CHANNEL_DELETE")])
          const roleMade = yield* post(
            `/api/v10/guilds/${guild.id}/roles`,
            { name: "bot viewers", permissions: VIEW_CHANNEL },
            owner.access_token
          )
          const role = ((yield* json(roleMade)) as { id: string }).id
          yield* promise(() => bot.unread())
          const given = yield* send(
            "PATCH",
            `/api/v10/guilds/${guild.id}/members/${app.id}`,
            { roles: [role] },
            owner.access_token
          )
          expect(given.status).toBe(200)
          // no GUILD_MEMBER_UPDATE (no GUILD_MEMBERS), but the channels it now sees
          expect(names(yield* promise(() => bot.unread()))).toEqual(
            Array.from({ length: count }, () => "CHANNEL_CREATE")
          )
          yield* promise(() => bot.close())
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
      it.effect("op 8: members by prefix, by ids (not_found), the whole list with GUILD_MEMBERS once per 30 s", () =>
        Effect.gen(function* () {
          const { owner, guild, token } = yield* botInGuild("+79050019020", "gwm")
          const alpha = yield* register("+79050019021", "gwm_alpha")
          const alpine = yield* register("+79050019022", "gwm_alpine")
          const beta = yield* register("+79050019023", "gwm_beta")
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          for (const user of [alpha, alpine, beta]) expect((yield* accept(user.access_token, code)).status).toBe(200)
          // a nickname counts as a name too
          expect(
            (yield* send(
              "PATCH",
              `/api/v10/guilds/${guild.id}/members/${beta.user_id}`,
              { nick: "gwm_alps" },
              owner.access_token
            )).status
          ).toBe(200)
          // a second bot whose application may ask for the member list (the limited flag)
          const lister = yield* createApplication(owner.access_token, "gwm lister")
          const listerToken = yield* resetBotToken(owner.access_token, lister.id)
          yield* addBotToGuild(owner.user_id, guild.id, { id: lister.id, name: "gwm lister" })
          const host = yield* TestHost.TestHost
          const flagged = yield* host.fetch(`/api/v10/applications/${lister.id}`, {
            method: "PATCH",
            headers: { authorization: `Bearer ${owner.access_token}`, "content-type": "application/json" },
            body: JSON.stringify({ flags: 1 << 15 })
          })
          expect(flagged.status).toBe(200)

          const bot = yield* ready(token, { intents: GUILDS })
          const request = (client: GatewayServer.RawClient, d: Record<string, unknown>) =>
            client.send({ op: 8, d: { guild_id: guild.id, ...d } })
          type Chunk = {
            guild_id: string
            members: Array<{ user: { id: string; username: string }; nick: string | null }>
            chunk_index: number
            chunk_count: number
            not_found?: Array<string>
            nonce?: string
            presences?: Array<unknown>
          }
          const chunk = (client: GatewayServer.RawClient) =>
            Effect.map(
              promise(() => client.nextDispatch("GUILD_MEMBERS_CHUNK")),
              (frame) => frame.d as Chunk
            )

          request(bot, { query: "GWM_ALP", limit: 10, nonce: "by-prefix" })
          const byPrefix = yield* chunk(bot)
          expect(byPrefix).toMatchObject({ guild_id: guild.id, chunk_index: 0, chunk_count: 1, nonce: "by-prefix" })
          expect(byPrefix.members.map((m) => m.user.id).sort()).toEqual(
            [alpha.user_id, alpine.user_id, beta.user_id].sort()
          )
          expect(byPrefix.presences).toBeUndefined()
          request(bot, { query: "gwm_alp", limit: 1 })
          expect((yield* chunk(bot)).members).toHaveLength(1)

          const stranger = "175928847299117063"
          request(bot, { user_ids: [alpha.user_id, stranger, "not-an-id"], nonce: "x".repeat(33), presences: true })
          const byIds = yield* chunk(bot)
          expect(byIds.members.map((m) => m.user.id)).toEqual([alpha.user_id])
          expect(byIds.not_found?.sort()).toEqual([stranger, "not-an-id"].sort())
          // a nonce over 32 bytes is left out; presences without the intent are not sent
          expect(byIds.nonce).toBeUndefined()
          expect(byIds.presences).toBeUndefined()

          // the whole list without GUILD_MEMBERS: one empty chunk
          request(bot, { query: "", limit: 0, nonce: "all" })
          expect(yield* chunk(bot)).toMatchObject({ members: [], chunk_count: 1, nonce: "all" })

          // a guild the session is not in: nothing at all
          bot.send({ op: 8, d: { guild_id: "175928847299117099", query: "", limit: 0 } })
          expect(names(yield* promise(() => bot.unread()))).toEqual([])

          // with the intent: every member (owner, three users, two bots), then RATE_LIMITED within 30 s
          const listerClient = yield* ready(listerToken, { intents: GUILDS | GUILD_MEMBERS })
          request(listerClient, { query: "", limit: 0, nonce: "everyone" })
          const all = yield* chunk(listerClient)
          expect(all).toMatchObject({ chunk_index: 0, chunk_count: 1, nonce: "everyone" })
          expect(all.members).toHaveLength(6)
          expect(all.members.find((m) => m.user.id === beta.user_id)?.nick).toBe("gwm_alps")
          request(listerClient, { query: "", limit: 0, nonce: "again" })
          const limited = yield* promise(() => listerClient.nextDispatch("RATE_LIMITED"))
          expect(limited.d).toMatchObject({ opcode: 8, meta: { guild_id: guild.id, nonce: "again" } })
          const retryAfter = (limited.d as { retry_after: number }).retry_after
          expect(retryAfter).toBeGreaterThan(0)
          expect(retryAfter).toBeLessThanOrEqual(30)
          // a prefix request is not limited by it
          request(listerClient, { query: "gwm_be", limit: 5 })
          expect((yield* chunk(listerClient)).members.map((m) => m.user.id)).toEqual([beta.user_id])

          // before IDENTIFY: 4003
          const early = yield* connect()
          early.send({ op: 8, d: { guild_id: guild.id, query: "", limit: 0 } })
          expect((yield* promise(() => early.closed)).code).toBe(4003)
          yield* promise(() => bot.close())
          yield* promise(() => listerClient.close())
        })
      )
      it.effect(
        "op 8 with presences: the chunk carries the members shown online, [] when none, none without the intent",
        () =>
          Effect.gen(function* () {
            const owner = yield* register("+79050019041", "gwp_owner")
            const online = yield* register("+79050019042", "gwp_online")
            const away = yield* register("+79050019043", "gwp_away")
            const hidden = yield* register("+79050019044", "gwp_hidden")
            const guild = yield* guildWith(
              owner.access_token,
              [online.access_token, away.access_token, hidden.access_token],
              "Presence Chunks"
            )
            const onlineClient = yield* ready(online.access_token)
            const hiddenClient = yield* ready(hidden.access_token, {
              presence: { status: "invisible", activities: [], since: null, afk: false }
            })
            // a user's session has every intent, GUILD_PRESENCES among them
            const ownerClient = yield* ready(owner.access_token)
            type Chunk = { members: Array<{ user: { id: string } }>; presences?: Array<{ user: { id: string } }> }
            const ask = (client: GatewayServer.RawClient, d: Record<string, unknown>) =>
              Effect.gen(function* () {
                client.send({ op: 8, d: { guild_id: guild.id, ...d } })
                return (yield* promise(() => client.nextDispatch("GUILD_MEMBERS_CHUNK"))).d as Chunk
              })

            const byIds = yield* ask(ownerClient, {
              user_ids: [online.user_id, away.user_id, hidden.user_id],
              presences: true
            })
            expect(byIds.members).toHaveLength(3)
            // the invisible member shows as offline, so is left out like the offline one
            expect(byIds.presences).toEqual([
              { user: { id: online.user_id }, status: "online", activities: [], client_status: { web: "online" } }
            ])
            expect(byIds.presences?.[0]).not.toHaveProperty("guild_id")
            // nobody online among the matches: an empty list
            expect((yield* ask(ownerClient, { user_ids: [away.user_id], presences: true })).presences).toEqual([])
            // not asked: no presences field
            expect((yield* ask(ownerClient, { user_ids: [online.user_id] })).presences).toBeUndefined()
            // by prefix, too
            const byPrefix = yield* ask(ownerClient, { query: "gwp_on", limit: 5, presences: true })
            expect(byPrefix.presences?.map((p) => p.user.id)).toEqual([online.user_id])

            // a session without GUILD_PRESENCES: presences count as false (no close, no field)
            const plain = yield* ready(away.access_token, { intents: GUILDS | GUILD_MEMBERS })
            const without = yield* ask(plain, { user_ids: [online.user_id], presences: true })
            expect(without.members).toHaveLength(1)
            expect(without.presences).toBeUndefined()
            // `presences` that is not a boolean: a decode error (4002), as any malformed command
            ownerClient.send({ op: 8, d: { guild_id: guild.id, user_ids: [online.user_id], presences: "yes" } })
            expect((yield* promise(() => ownerClient.closed)).code).toBe(4002)
            for (const client of [onlineClient, hiddenClient, plain]) yield* promise(() => client.close())
          })
      )
    })
  })
