/**
 * The WebSocket gateway through a real listening socket (the test host behind Node's HTTP server),
 * with a raw `ws` client: HELLO, heartbeats, IDENTIFY as a user and as a bot, READY and GUILD_CREATE,
 * close codes for bad input, the command rate limit, a missed heartbeat on the test clock, live
 * dispatches filtered by intents, RESUME with replay, and the identify budget in GET /gateway/bot.
 * Run on memory (test/gateway.test.ts) and on PostgreSQL (adapters/postgres/test/GatewayRoutes.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { GuildBots, GuildPremium, GuildsRepo, GuildViews } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { PublicUsers } from "@veche/users"
import { Effect, type Layer, Option } from "effect"
import { json, post, register, send } from "./Accounts.ts"
import { asBot, createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { addBotToGuild, botInGuild } from "./Bots.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { createGuild } from "./Guilds.ts"

const GUILDS = 1 << 0
const GUILD_MEMBERS = 1 << 1
const GUILD_MESSAGES = 1 << 9
const MESSAGE_CONTENT = 1 << 15

const connect = (query = "?v=10&encoding=json") =>
  Effect.flatMap(Effect.service(GatewayServer.Listening), (listening) =>
    Effect.promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}${query}`))
  )
const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
const identify = (token: string, extra: Record<string, unknown> = {}) => ({
  op: 2,
  d: { token, properties: { os: "linux", browser: "test", device: "test" }, ...extra }
})

export const gatewayScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) =>
  describe("the gateway", () => {
    layer(GatewayServer.layer({ repositories: repositories?.() }), { timeout: "60 seconds" })((it) => {
      it.effect("says HELLO, acknowledges heartbeats, and a user's IDENTIFY gets READY then GUILD_CREATE", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050009001", "gw_user")
          const guild = yield* createGuild(user.access_token, "Gateway Guild")
          const client = yield* connect()
          const hello = yield* promise(() => client.next())
          expect(hello).toMatchObject({ op: 10, d: { heartbeat_interval: 41250 } })
          client.send({ op: 1, d: null })
          expect(yield* promise(() => client.next())).toMatchObject({ op: 11 })

          client.send(identify(user.access_token))
          const ready = yield* promise(() => client.next())
          expect(ready).toMatchObject({
            op: 0,
            t: "READY",
            s: 1,
            d: {
              v: 10,
              user: { id: user.user_id, username: "gw_user" },
              guilds: [{ id: guild.id, unavailable: true }],
              user_settings: { status: "online", custom_status: null, theme: "dark", locale: "ru" }
            }
          })
          const d = ready.d as { session_id: string; resume_gateway_url: string; application?: unknown }
          expect(d.session_id).toMatch(/^[0-9a-f]{32}$/)
          expect(d.resume_gateway_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/)
          expect(d.application).toBeUndefined()
          const created = yield* promise(() => client.next())
          expect(created).toMatchObject({
            op: 0,
            t: "GUILD_CREATE",
            s: 2,
            d: { id: guild.id, name: "Gateway Guild", unavailable: false, member_count: 1 }
          })
          expect((created.d as { channels: Array<unknown> }).channels.length).toBeGreaterThan(0)

          // a live dispatch: a channel made through the API reaches the session
          const made = yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "live" }, user.access_token)
          expect(made.status).toBe(201)
          const channel = (yield* json(made)) as { id: string }
          const event = yield* promise(() => client.nextDispatch("CHANNEL_CREATE"))
          expect(event).toMatchObject({ s: 3, d: { id: channel.id, name: "live", guild_id: guild.id } })

          // a second IDENTIFY on the same connection
          client.send(identify(user.access_token))
          expect((yield* promise(() => client.closed)).code).toBe(4005)
        })
      )

      it.effect(
        "a joining member's session gets GUILD_CREATE, then the guild's dispatches; settings go to the user",
        () =>
          Effect.gen(function* () {
            const owner = yield* register("+79050009006", "gw_host")
            const guest = yield* register("+79050009007", "gw_guest")
            const guild = yield* createGuild(owner.access_token, "Joined Guild")
            const ownerClient = yield* connect()
            ownerClient.send(identify(owner.access_token))
            yield* promise(() => ownerClient.nextDispatch("GUILD_CREATE"))
            const client = yield* connect()
            client.send(identify(guest.access_token))
            const ready = yield* promise(() => client.nextDispatch("READY"))
            expect(ready.d).toMatchObject({ guilds: [] })

            const invite = yield* post(`/api/v10/channels/${guild.system_channel_id}/invites`, {}, owner.access_token)
            const code = ((yield* json(invite)) as { code: string }).code
            expect((yield* post(`/api/v10/invites/${code}`, {}, guest.access_token)).status).toBe(200)
            const joined = yield* promise(() => client.nextDispatch("GUILD_CREATE"))
            expect(joined.d).toMatchObject({ id: guild.id, unavailable: false, member_count: 2 })
            // the owner (a user: every intent) hears of the new member
            const added = yield* promise(() => ownerClient.nextDispatch("GUILD_MEMBER_ADD"))
            expect(added.d).toMatchObject({ guild_id: guild.id, user: { id: guest.user_id } })
            // and the guest now receives the guild's own dispatches
            yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "after-join" }, owner.access_token)
            const channel = yield* promise(() => client.nextDispatch("CHANNEL_CREATE"))
            expect(channel.d).toMatchObject({ guild_id: guild.id, name: "after-join" })

            // a user's own settings change reaches their session (and nobody else's)
            const changed = yield* send("PATCH", "/api/v10/users/@me/settings", { status: "dnd" }, guest.access_token)
            expect(changed.status).toBe(200)
            const settings = yield* promise(() => client.nextDispatch("USER_SETTINGS_UPDATE"))
            expect(settings.d).toMatchObject({ status: "dnd" })
            expect((yield* promise(() => ownerClient.unread())).map((f) => f.t)).not.toContain("USER_SETTINGS_UPDATE")

            // a new session of the owner sees both members in GUILD_CREATE (a user's session has every intent)
            const again = yield* connect()
            again.send(identify(owner.access_token))
            const snapshot = yield* promise(() => again.nextDispatch("GUILD_CREATE"))
            const members = (snapshot.d as { members: Array<{ user: { id: string } }> }).members.map((m) => m.user.id)
            expect(members.sort()).toEqual([owner.user_id, guest.user_id].sort())
            yield* promise(() => again.close())
            yield* promise(() => client.close())
            yield* promise(() => ownerClient.close())
          })
      )

      it.effect(
        "READY and GUILD_CREATE carry what the user, settings and guild reads answer (GUILD_CREATE byte for byte)",
        () =>
          Effect.gen(function* () {
            const host = yield* TestHost.TestHost
            const owner = yield* register("+79050009021", "gw_pin_owner")
            const user = yield* register("+79050009022", "gw_pin_user")
            const guild = yield* createGuild(owner.access_token, 'Pinned "Guild" ✓')
            const role = (yield* json(
              yield* post(
                `/api/v10/guilds/${guild.id}/roles`,
                { name: "pinned", color: 255, hoist: true },
                owner.access_token
              )
            )) as { id: string }
            const made = yield* post(
              `/api/v10/guilds/${guild.id}/channels`,
              {
                name: "pinned-topic",
                topic: 'with "quotes"',
                permission_overwrites: [{ id: role.id, type: 0, allow: "1024", deny: "0" }]
              },
              owner.access_token
            )
            expect(made.status).toBe(201)
            const code = (
              (yield* json(
                yield* post(`/api/v10/channels/${guild.system_channel_id}/invites`, {}, owner.access_token)
              )) as { code: string }
            ).code
            expect((yield* post(`/api/v10/invites/${code}`, {}, user.access_token)).status).toBe(200)
            const given = yield* send(
              "PATCH",
              `/api/v10/guilds/${guild.id}/members/${user.user_id}`,
              { roles: [role.id], nick: "пин" },
              owner.access_token
            )
            expect(given.status).toBe(200)
            const changed = yield* send("PATCH", "/api/v10/users/@me/settings", { status: "idle" }, user.access_token)
            expect(changed.status).toBe(200)

            const client = yield* connect()
            yield* promise(() => client.next())
            client.send(identify(user.access_token, { intents: GUILDS }))
            const ready = yield* promise(() => client.nextDispatch("READY"))
            const me = yield* json(yield* send("GET", "/api/v10/users/@me", undefined, user.access_token))
            const settings = yield* json(
              yield* send("GET", "/api/v10/users/@me/settings", undefined, user.access_token)
            )
            expect((ready.d as { user: unknown }).user).toEqual(me)
            expect((ready.d as { user_settings: unknown }).user_settings).toMatchObject(
              settings as Record<string, unknown>
            )
            expect((ready.d as { guilds: unknown }).guilds).toEqual([{ id: guild.id, unavailable: true }])
            yield* promise(() => client.nextDispatch("GUILD_CREATE"))
            const text = client.texts.find((frame) => frame.includes('"t":"GUILD_CREATE"')) ?? ""
            const payload = text.slice(text.indexOf(',"d":') + 5, -1)
            // what GUILD_CREATE was built from before it was one read: each part read on its own
            const expected = yield* host.run(
              Effect.gen(function* () {
                const repo = yield* GuildsRepo.GuildsRepo
                const users = yield* PublicUsers.PublicUsers
                const guildId = Snowflake.Snowflake.make(guild.id)
                const userId = Snowflake.Snowflake.make(user.user_id)
                const found = Option.getOrThrow(yield* repo.find(guildId))
                const member = Option.getOrThrow(yield* repo.member(guildId, userId))
                const roles = yield* repo.roles(guildId)
                const publicUser = Option.getOrThrow(yield* users.find(userId, GuildBots.isBotMember(roles, member)))
                return GuildViews.guildCreate({
                  guild: found,
                  roles,
                  channels: yield* repo.channels(guildId),
                  members: [{ member, user: publicUser }],
                  memberCount: yield* repo.memberCount(guildId),
                  joinedAt: member.joinedAt,
                  largeThreshold: GuildViews.DEFAULT_LARGE_THRESHOLD,
                  premium: GuildPremium.NONE
                })
              })
            )
            expect(payload).toBe(JSON.stringify(expected))
            expect(JSON.parse(payload)).toMatchObject({
              member_count: 2,
              roles: [{}, { id: role.id }],
              members: [{ nick: "пин", roles: [role.id], user: { id: user.user_id } }]
            })
            yield* promise(() => client.close())
          })
      )

      it.effect("closes with the platform's codes for bad input", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050009002", "gw_codes")
          const expectClose = (code: number, query: string | undefined, ...frames: Array<unknown>) =>
            Effect.gen(function* () {
              const client = yield* connect(query)
              for (const frame of frames) client.send(frame)
              const closed = yield* promise(() => client.closed)
              expect(closed.code).toBe(code)
            })
          yield* expectClose(4004, undefined, identify("vat_not-a-token"))
          // another kind of token of the same user, and an OAuth access token: not for the gateway
          yield* expectClose(4004, undefined, identify(user.refresh_token))
          yield* expectClose(4004, undefined, identify(`voa_${user.access_token.slice(4)}`))
          yield* expectClose(4002, undefined, "{not json")
          yield* expectClose(4002, undefined, { op: 2, d: { token: 5 } })
          yield* expectClose(4001, undefined, { op: 99, d: null })
          yield* expectClose(4003, undefined, { op: 3, d: { since: null, activities: [], status: "idle", afk: false } })
          yield* expectClose(4012, "?v=8&encoding=json")
          yield* expectClose(4002, "?v=10&encoding=etf")
          yield* expectClose(4013, undefined, identify(user.access_token, { intents: 1 << 30 }))
          yield* expectClose(4013, undefined, identify(user.access_token, { intents: 1.5 }))
          yield* expectClose(4010, undefined, identify(user.access_token, { shard: [2, 2] }))
          // 121 commands within a minute
          yield* expectClose(4008, undefined, ...Array.from({ length: 121 }, () => ({ op: 1, d: null })))
        })
      )

      it.effect("asks for a missed heartbeat (op 1), then closes with 4009", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const client = yield* connect()
          yield* promise(() => client.next())
          yield* host.adjustClock("62 seconds")
          expect(yield* promise(() => client.next())).toMatchObject({ op: 1 })
          client.send({ op: 1, d: null })
          expect(yield* promise(() => client.next())).toMatchObject({ op: 11 })
          yield* host.adjustClock("62 seconds")
          expect(yield* promise(() => client.next())).toMatchObject({ op: 1 })
          yield* host.adjustClock("21 seconds")
          expect((yield* promise(() => client.closed)).code).toBe(4009)
        })
      )

      it.effect("a bot: READY with application, GUILD_CREATE per intents, 4014 for privileged intents, budget", () =>
        Effect.gen(function* () {
          const { owner, guild, app, token } = yield* botInGuild("+79050009003", "gwbot")
          const refused = yield* connect()
          refused.send(identify(token, { intents: GUILDS | GUILD_MEMBERS }))
          expect((yield* promise(() => refused.closed)).code).toBe(4014)
          const missing = yield* connect()
          missing.send(identify(token))
          expect((yield* promise(() => missing.closed)).code).toBe(4013)

          const client = yield* connect()
          yield* promise(() => client.next())
          client.send(identify(token, { intents: GUILDS | GUILD_MESSAGES, shard: [0, 1] }))
          const ready = yield* promise(() => client.nextDispatch("READY"))
          expect(ready.d).toMatchObject({
            user: { id: app.id, bot: true },
            application: { id: app.id, flags: 0 },
            guilds: [{ id: guild.id, unavailable: true }],
            shard: [0, 1]
          })
          expect((ready.d as { user_settings?: unknown }).user_settings).toBeUndefined()
          const created = yield* promise(() => client.nextDispatch("GUILD_CREATE"))
          // without GUILD_MEMBERS: its own member only
          expect(created.d).toMatchObject({ id: guild.id, unavailable: false, member_count: 2 })
          expect((created.d as { members: Array<{ user: { id: string } }> }).members.map((m) => m.user.id)).toEqual([
            app.id
          ])

          // a member joining is a GUILD_MEMBERS dispatch: not for this bot; a role is GUILDS: delivered
          const joiner = yield* register("+79050009004", "gw_joiner")
          const invite = yield* post(`/api/v10/channels/${guild.system_channel_id}/invites`, {}, owner.access_token)
          const code = ((yield* json(invite)) as { code: string }).code
          expect((yield* post(`/api/v10/invites/${code}`, {}, joiner.access_token)).status).toBe(200)
          expect((yield* post(`/api/v10/guilds/${guild.id}/roles`, { name: "after" }, owner.access_token)).status).toBe(
            200
          )
          const role = yield* promise(() => client.nextDispatch("GUILD_ROLE_CREATE"))
          expect(role.d).toMatchObject({ guild_id: guild.id, role: { name: "after" } })
          const seen = client.frames.map((f) => f.t)
          expect(seen).not.toContain("GUILD_MEMBER_ADD")

          // one identify spent of the day, reported to the bot
          const budget = yield* asBot("GET", "/api/v10/gateway/bot", token)
          const body = (yield* json(budget)) as { session_start_limit: { remaining: number; reset_after: number } }
          expect(body.session_start_limit).toMatchObject({ total: 1000, remaining: 999, max_concurrency: 1 })
          expect(body.session_start_limit.reset_after).toBeGreaterThan(86_000_000)

          // a second identify within 5 s of the first, same bucket: op 9, may identify again
          const second = yield* connect()
          yield* promise(() => second.next())
          second.send(identify(token, { intents: GUILDS }))
          expect(yield* promise(() => second.next())).toMatchObject({ op: 9, d: false })
          second.send({ op: 1, d: null })
          expect(yield* promise(() => second.next())).toMatchObject({ op: 11 })
          yield* promise(() => second.close())
          yield* promise(() => client.close())
        })
      )

      it.effect("an owner turns on the limited members intent: the bot asks for GUILD_MEMBERS and gets members", () =>
        Effect.gen(function* () {
          const { owner, guild, app, token } = yield* botInGuild("+79050009008", "gwpriv")
          const host = yield* TestHost.TestHost
          const patch = (flags: number) =>
            host.fetch(`/api/v10/applications/${app.id}`, {
              method: "PATCH",
              headers: { authorization: `Bearer ${owner.access_token}`, "content-type": "application/json" },
              body: JSON.stringify({ flags })
            })
          // the unlimited flags follow a review: not settable
          const refused = yield* patch(1 << 14)
          expect(refused.status).toBe(400)
          expect(yield* json(refused)).toMatchObject({ code: 50035, errors: { flags: {} } })
          const limited = (1 << 15) | (1 << 19)
          const changed = yield* patch(limited)
          expect(changed.status).toBe(200)
          expect(yield* json(changed)).toMatchObject({ id: app.id, flags: limited })

          const client = yield* connect()
          client.send(identify(token, { intents: GUILDS | GUILD_MEMBERS }))
          const ready = yield* promise(() => client.nextDispatch("READY"))
          expect(ready.d).toMatchObject({ application: { id: app.id, flags: limited } })
          const created = yield* promise(() => client.nextDispatch("GUILD_CREATE"))
          const members = (created.d as { members: Array<{ user: { id: string } }> }).members.map((m) => m.user.id)
          expect(members.sort()).toEqual([owner.user_id, app.id].sort())
          // presences stay privileged without their flag
          const presences = yield* connect()
          presences.send(identify(token, { intents: GUILDS | (1 << 8) }))
          expect((yield* promise(() => presences.closed)).code).toBe(4014)

          const joiner = yield* register("+79050009009", "gw_priv_joiner")
          const invite = yield* post(`/api/v10/channels/${guild.system_channel_id}/invites`, {}, owner.access_token)
          const code = ((yield* json(invite)) as { code: string }).code
          expect((yield* post(`/api/v10/invites/${code}`, {}, joiner.access_token)).status).toBe(200)
          const added = yield* promise(() => client.nextDispatch("GUILD_MEMBER_ADD"))
          expect(added.d).toMatchObject({ guild_id: guild.id, user: { id: joiner.user_id } })
          yield* promise(() => client.close())
        })
      )

      it.effect(
        "MESSAGE_CONTENT: a bot without the intent's flag gets guild messages emptied, but its own and mentions",
        () =>
          Effect.gen(function* () {
            const { owner, guild, app, token } = yield* botInGuild("+79050009010", "gwcontent")
            const host = yield* TestHost.TestHost
            // a second bot in the guild, whose owner turned on the limited message content flag
            const reader = yield* createApplication(owner.access_token, "gwcontent reader")
            const readerToken = yield* resetBotToken(owner.access_token, reader.id)
            yield* addBotToGuild(owner.user_id, guild.id, { id: reader.id, name: "gwcontent reader" })
            const flagged = yield* host.fetch(`/api/v10/applications/${reader.id}`, {
              method: "PATCH",
              headers: { authorization: `Bearer ${owner.access_token}`, "content-type": "application/json" },
              body: JSON.stringify({ flags: 1 << 19 })
            })
            expect(flagged.status).toBe(200)

            // both ask for the intent: asking without the flag is no error, the content is emptied
            const blind = yield* connect()
            blind.send(identify(token, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT }))
            yield* promise(() => blind.nextDispatch("GUILD_CREATE"))
            const seeing = yield* connect()
            seeing.send(identify(readerToken, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT }))
            yield* promise(() => seeing.nextDispatch("GUILD_CREATE"))

            const channel = guild.system_channel_id
            const posted = yield* post(
              `/api/v10/channels/${channel}/messages`,
              { content: "plain words", embeds: [{ title: "an embed" }] },
              owner.access_token
            )
            expect(posted.status).toBe(200)
            const plain = (yield* json(posted)) as { id: string }
            const hidden = yield* promise(() => blind.nextDispatch("MESSAGE_CREATE"))
            expect(hidden.d).toMatchObject({
              id: plain.id,
              guild_id: guild.id,
              author: { id: owner.user_id },
              content: "",
              embeds: [],
              attachments: [],
              components: []
            })
            expect(yield* promise(() => seeing.nextDispatch("MESSAGE_CREATE"))).toMatchObject({
              d: { id: plain.id, content: "plain words", embeds: [{ title: "an embed" }] }
            })

            const edited = yield* send(
              "PATCH",
              `/api/v10/channels/${channel}/messages/${plain.id}`,
              { content: "edited words" },
              owner.access_token
            )
            expect(edited.status).toBe(200)
            expect(yield* promise(() => blind.nextDispatch("MESSAGE_UPDATE"))).toMatchObject({
              d: { id: plain.id, content: "", embeds: [] }
            })
            expect(yield* promise(() => seeing.nextDispatch("MESSAGE_UPDATE"))).toMatchObject({
              d: { id: plain.id, content: "edited words" }
            })

            // a message that mentions the bot, and the bot's own, keep their content
            const mention = `<@${app.id}> look`
            expect(
              (yield* post(`/api/v10/channels/${channel}/messages`, { content: mention }, owner.access_token)).status
            ).toBe(200)
            expect(yield* promise(() => blind.nextDispatch("MESSAGE_CREATE"))).toMatchObject({
              d: { content: mention, mentions: [{ id: app.id }] }
            })
            const own = yield* asBot("POST", `/api/v10/channels/${channel}/messages`, token, {
              content: "my own words"
            })
            expect(own.status).toBe(200)
            expect(yield* promise(() => blind.nextDispatch("MESSAGE_CREATE"))).toMatchObject({
              d: { content: "my own words", author: { id: app.id } }
            })
            yield* promise(() => blind.close())
            yield* promise(() => seeing.close())
          })
      )

      it.effect("resumes a dropped session with what it missed, then RESUMED; unknown sessions get op 9", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050009005", "gw_resume")
          const guild = yield* createGuild(user.access_token, "Resume Guild")
          const first = yield* connect()
          first.send(identify(user.access_token))
          const ready = yield* promise(() => first.nextDispatch("READY"))
          const sessionId = (ready.d as { session_id: string }).session_id
          const created = yield* promise(() => first.nextDispatch("GUILD_CREATE"))
          // dropped without 1000/1001: resumable
          yield* promise(() => first.close(4000))
          yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "missed" }, user.access_token)

          const second = yield* connect()
          yield* promise(() => second.next())
          second.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq: created.s } })
          const missed = yield* promise(() => second.next())
          expect(missed).toMatchObject({ op: 0, t: "CHANNEL_CREATE", s: 3, d: { name: "missed" } })
          expect(yield* promise(() => second.next())).toMatchObject({ op: 0, t: "RESUMED", s: 4 })

          const stranger = yield* connect()
          yield* promise(() => stranger.next())
          stranger.send({ op: 6, d: { token: user.access_token, session_id: "0".repeat(32), seq: 1 } })
          expect(yield* promise(() => stranger.next())).toMatchObject({ op: 9, d: false })

          // a number the session never sent (ahead of it, or below zero): 4007, and the session is
          // left where it is (still on `second`)
          for (const seq of [99, -5]) {
            const ahead = yield* connect()
            yield* promise(() => ahead.next())
            ahead.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq } })
            expect((yield* promise(() => ahead.closed)).code).toBe(4007)
          }
          second.send({ op: 1, d: null })
          const stillThere = yield* promise(async () => {
            for (;;) if ((await second.next()).op === 11) return true
          })
          expect(stillThere).toBe(true)

          // closed with 1000: the session ends, a resume is refused
          yield* promise(() => second.close(1000))
          const third = yield* connect()
          yield* promise(() => third.next())
          third.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq: 4 } })
          expect(yield* promise(() => third.next())).toMatchObject({ op: 9, d: false })
        })
      )

      it.effect("a plain GET /gateway (no upgrade) answers 426 in the API's error shape", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const response = yield* host.fetch("/gateway")
          expect(response.status).toBe(426)
          expect(yield* json(response)).toEqual({ code: 0, message: "426: Upgrade Required" })
        })
      )
    })
  })
