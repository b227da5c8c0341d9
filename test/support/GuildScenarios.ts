/**
 * The guild routes through HTTP, as one set of scenarios any test host can run: guilds, the caller's
 * list, leaving, members, bans, roles, channels and invitations, with every error code the issue
 * names. test/guilds.test.ts runs them on memory; adapters/postgres/test/GuildRoutes.test.ts on
 * PostgreSQL. The permission matrix is in guild-permissions.test.ts; bot libraries in
 * guilds-discordjs.test.ts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type Guild, GuildsRepo } from "@veche/guilds"
import { EventBus, Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect, Fiber, type Layer, Stream } from "effect"
import { awaitMessage, json, PASSWORD, post, register, send } from "./Accounts.ts"
import { accept, createGuild, get, guildWith, inviteTo, ownershipRefused } from "./Guilds.ts"

/**
 * Registers every scenario. `repositories` is called once per describe block, so each block gets
 * its own store (as a memory host has); default memory.
 */
export const guildRouteScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () =>
    TestHost.layer({
      rateLimits: { enabled: false },
      staff: { phones: ["+79651000000"] },
      repositories: repositories?.()
    })
  const patch = (path: string, body: unknown, token: string) => send("PATCH", path, body, token)
  const put = (path: string, body: unknown, token: string, headers: Record<string, string> = {}) =>
    Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
      h.fetch(path, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body)
      })
    )
  const del = (path: string, token: string) => send("DELETE", path, undefined, token)

  const expectError = (response: Response, status: number, code: number) =>
    Effect.gen(function* () {
      const body = (yield* json(response)) as { code: number }
      expect({ status: response.status, code: body.code }).toEqual({ status, code })
      return body
    })

  let phone = 79652000000
  const user = (name: string) => register(`+${++phone}`, `${name}_${phone % 100000}`)

  const eventsDuring = <A, E, R>(n: number, action: Effect.Effect<A, E, R>) =>
    Effect.gen(function* () {
      const h = yield* TestHost.TestHost
      const bus = yield* h.run(Effect.service(EventBus.EventBus))
      const fiber = yield* bus.events.pipe(Stream.take(n), Stream.runCollect, Effect.forkChild)
      yield* Effect.yieldNow
      yield* action
      return yield* Fiber.join(fiber)
    })

  describe("Guilds", () => {
    layer(host())((it) => {
      it.effect("POST /guilds makes the guild with @everyone and its starting channels; GET reads it", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_owner")
          const guild = yield* createGuild(owner.access_token, "Первый сервер")
          expect(guild).toMatchObject({
            name: "Первый сервер",
            owner_id: owner.user_id,
            verification_level: 0,
            features: [],
            roles: [{ id: guild.id, name: "@everyone", position: 0, managed: false }]
          })
          const channels = (yield* json(
            yield* get(`/api/v10/guilds/${guild.id}/channels`, owner.access_token)
          )) as Array<{
            id: string
            type: number
            name: string
            parent_id: string | null
          }>
          expect(channels.map((c) => `${c.type} ${c.name}`).sort()).toEqual([
            "0 general",
            "2 General",
            "4 Text Channels",
            "4 Voice Channels"
          ])
          expect(channels.find((c) => c.type === 0)?.id).toBe(guild.system_channel_id)
          const counted = yield* get(`/api/v10/guilds/${guild.id}?with_counts=true`, owner.access_token)
          expect(yield* json(counted)).toMatchObject({
            id: guild.id,
            approximate_member_count: 1,
            approximate_presence_count: 0
          })
          const plain = (yield* json(yield* get(`/api/v10/guilds/${guild.id}`, owner.access_token))) as object
          expect(plain).not.toHaveProperty("approximate_member_count")
        })
      )

      it.effect("answers 10004 for an unknown guild, 50001 to a non-member, 50035 for a bad name", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_codes")
          const stranger = yield* user("g_stranger")
          const guild = yield* createGuild(owner.access_token)
          yield* expectError(yield* get("/api/v10/guilds/1000000000000000001", owner.access_token), 404, 10004)
          yield* expectError(yield* get(`/api/v10/guilds/${guild.id}`, stranger.access_token), 403, 50001)
          const bad = yield* expectError(yield* post("/api/v10/guilds", { name: "x" }, owner.access_token), 400, 50035)
          expect(bad).toMatchObject({ errors: { name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } })
        })
      )

      it.effect("a user reaches 100 guilds at most (30001), by creating and by joining", () =>
        Effect.gen(function* () {
          const busy = yield* user("g_busy")
          const other = yield* user("g_other")
          const open = yield* createGuild(other.access_token)
          const code = yield* inviteTo(other.access_token, open.system_channel_id)
          for (let i = 0; i < 100; i++) yield* createGuild(busy.access_token, `Guild ${i}`)
          yield* expectError(yield* post("/api/v10/guilds", { name: "One more" }, busy.access_token), 400, 30001)
          yield* expectError(yield* accept(busy.access_token, code), 400, 30001)
          const listed = (yield* json(
            yield* get("/api/v10/users/@me/guilds?limit=200", busy.access_token)
          )) as Array<unknown>
          expect(listed).toHaveLength(100)
        })
      )

      it.effect("PATCH edits fields, checks channel fields and Community; the owner hands the guild over", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_patch")
          const member = yield* user("g_heir")
          const stranger = yield* user("g_nobody")
          const guild = yield* guildWith(owner.access_token, [member.access_token])
          const path = `/api/v10/guilds/${guild.id}`
          const edited = yield* patch(
            path,
            { name: "Renamed", description: "About us", verification_level: 2, preferred_locale: "ru" },
            owner.access_token
          )
          expect(edited.status).toBe(200)
          expect(yield* json(edited)).toMatchObject({
            name: "Renamed",
            description: "About us",
            verification_level: 2,
            preferred_locale: "ru"
          })
          const channels = (yield* json(yield* get(`${path}/channels`, owner.access_token))) as Array<{
            id: string
            type: number
          }>
          const voice = channels.find((c) => c.type === 2)?.id
          const text = channels.find((c) => c.type === 0)?.id
          const wrongKind = yield* expectError(
            yield* patch(path, { system_channel_id: voice }, owner.access_token),
            400,
            50035
          )
          expect(wrongKind).toMatchObject({ errors: { system_channel_id: { _errors: [{ code: "CHANNEL_INVALID" }] } } })
          yield* expectError(yield* patch(path, { features: ["COMMUNITY"] }, owner.access_token), 400, 50035)
          const community = yield* patch(
            path,
            { features: ["COMMUNITY"], rules_channel_id: text, public_updates_channel_id: text },
            owner.access_token
          )
          expect(yield* json(community)).toMatchObject({ features: ["COMMUNITY"], rules_channel_id: text })
          yield* expectError(yield* del(`/api/v10/channels/${text}`, owner.access_token), 400, 50074)

          yield* expectError(yield* patch(path, { owner_id: member.user_id }, member.access_token), 403, 50013)
          yield* expectError(yield* patch(path, { owner_id: stranger.user_id }, owner.access_token), 404, 10007)
          const handed = yield* patch(path, { owner_id: member.user_id }, owner.access_token)
          expect(yield* json(handed)).toMatchObject({ owner_id: member.user_id })
          // the former owner is a plain member now
          yield* expectError(yield* patch(path, { name: "Mine again" }, owner.access_token), 403, 50013)
        })
      )

      it.effect("the guild cannot go to a member waiting for their account's deletion, until they cancel it", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_keeper")
          const leaving = yield* user("g_leaving")
          const guild = yield* guildWith(owner.access_token, [leaving.access_token])
          const path = `/api/v10/guilds/${guild.id}`
          const asked = yield* post("/api/v10/users/@me/delete", { password: PASSWORD }, leaving.access_token)
          expect(yield* json(asked)).toMatchObject({ status: "pending" })
          const refused = yield* patch(path, { owner_id: leaving.user_id }, owner.access_token)
          expect({ status: refused.status, body: yield* json(refused) }).toEqual(
            ownershipRefused("Ownership cannot be transferred to an account awaiting deletion.")
          )
          expect(yield* json(yield* get(path, owner.access_token))).toMatchObject({ owner_id: owner.user_id })
          // a cancelled request leaves an account like any other
          expect((yield* send("DELETE", "/api/v10/users/@me/delete", undefined, leaving.access_token)).status).toBe(200)
          const handed = yield* patch(path, { owner_id: leaving.user_id }, owner.access_token)
          expect(yield* json(handed)).toMatchObject({ owner_id: leaving.user_id })
        })
      )

      it.effect("DELETE dissolves the guild (owner only); members hear GUILD_DELETE", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_del")
          const member = yield* user("g_delm")
          const guild = yield* guildWith(owner.access_token, [member.access_token])
          yield* expectError(yield* del(`/api/v10/guilds/${guild.id}`, member.access_token), 403, 50013)
          const [event] = yield* eventsDuring(1, del(`/api/v10/guilds/${guild.id}`, owner.access_token))
          expect(event).toMatchObject({ type: "GUILD_DELETE", data: { id: guild.id } })
          expect([...(event?.userIds ?? [])].sort()).toEqual([owner.user_id, member.user_id].sort())
          yield* expectError(yield* get(`/api/v10/guilds/${guild.id}`, owner.access_token), 404, 10004)
          expect(yield* json(yield* get("/api/v10/users/@me/guilds", member.access_token))).toEqual([])
        })
      )

      it.effect("GET /users/@me/guilds pages by id with owner flags, permissions and counts", () =>
        Effect.gen(function* () {
          const me = yield* user("g_list")
          const friend = yield* user("g_listf")
          const mine = [yield* createGuild(me.access_token, "AA"), yield* createGuild(me.access_token, "BB")]
          const theirs = yield* guildWith(friend.access_token, [me.access_token], "CC")
          const all = (yield* json(
            yield* get("/api/v10/users/@me/guilds?with_counts=true", me.access_token)
          )) as Array<{
            id: string
            owner: boolean
            permissions: string
            approximate_member_count: number
          }>
          expect(all.map((g) => g.id)).toEqual([...mine.map((g) => g.id), theirs.id])
          expect(all.map((g) => g.owner)).toEqual([true, true, false])
          expect(all[2]).toMatchObject({ approximate_member_count: 2 })
          expect(typeof all[2]?.permissions).toBe("string")
          const second = mine[1]?.id
          const after = (yield* json(
            yield* get(`/api/v10/users/@me/guilds?after=${second}`, me.access_token)
          )) as Array<{
            id: string
          }>
          expect(after.map((g) => g.id)).toEqual([theirs.id])
          const before = (yield* json(
            yield* get(`/api/v10/users/@me/guilds?before=${theirs.id}&limit=1`, me.access_token)
          )) as Array<{ id: string }>
          expect(before.map((g) => g.id)).toEqual([second])
          yield* expectError(yield* get("/api/v10/users/@me/guilds?limit=201", me.access_token), 400, 50035)
        })
      )

      it.effect("leaving: a member leaves (204), the owner cannot (50055), a stranger gets 10004", () =>
        Effect.gen(function* () {
          const owner = yield* user("g_leave")
          const member = yield* user("g_leaver")
          const guild = yield* guildWith(owner.access_token, [member.access_token])
          expect((yield* del(`/api/v10/users/@me/guilds/${guild.id}`, member.access_token)).status).toBe(204)
          yield* expectError(yield* del(`/api/v10/users/@me/guilds/${guild.id}`, member.access_token), 404, 10004)
          yield* expectError(yield* del(`/api/v10/users/@me/guilds/${guild.id}`, owner.access_token), 400, 50055)
          const me = yield* get(`/api/v10/users/@me/guilds/${guild.id}/member`, owner.access_token)
          expect(yield* json(me)).toMatchObject({ user: { id: owner.user_id }, roles: [] })
          yield* expectError(
            yield* get(`/api/v10/users/@me/guilds/${guild.id}/member`, member.access_token),
            404,
            10004
          )
        })
      )
    })
  })

  describe("Members and bans", () => {
    layer(host())((it) => {
      it.effect("lists members by id, reads @me, edits nick and roles, kicks", () =>
        Effect.gen(function* () {
          const owner = yield* user("m_owner")
          const a = yield* user("m_a")
          const b = yield* user("m_b")
          const guild = yield* guildWith(owner.access_token, [a.access_token, b.access_token])
          const base = `/api/v10/guilds/${guild.id}`
          const one = (yield* json(yield* get(`${base}/members`, owner.access_token))) as Array<unknown>
          expect(one).toHaveLength(1)
          const all = (yield* json(yield* get(`${base}/members?limit=10`, owner.access_token))) as Array<{
            user: { id: string }
          }>
          const ids = [owner.user_id, a.user_id, b.user_id].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1))
          expect(all.map((m) => m.user.id)).toEqual(ids)
          const after = (yield* json(
            yield* get(`${base}/members?limit=10&after=${ids[0]}`, owner.access_token)
          )) as Array<{
            user: { id: string }
          }>
          expect(after.map((m) => m.user.id)).toEqual(ids.slice(1))
          expect(yield* json(yield* get(`${base}/members/@me`, a.access_token))).toMatchObject({
            user: { id: a.user_id, username: expect.stringMatching(/^m_a_/) },
            nick: null,
            roles: [],
            deaf: false,
            mute: false
          })
          yield* expectError(yield* get(`${base}/members/1000000000000000009`, a.access_token), 404, 10007)

          const nick = yield* patch(`${base}/members/@me`, { nick: "Эй" }, a.access_token)
          expect(yield* json(nick)).toMatchObject({ nick: "Эй" })
          const role = (yield* json(yield* post(`${base}/roles`, { name: "helpers" }, owner.access_token))) as {
            id: string
          }
          const given = yield* patch(`${base}/members/${b.user_id}`, { roles: [role.id] }, owner.access_token)
          expect(yield* json(given)).toMatchObject({ roles: [role.id] })
          yield* expectError(
            yield* patch(`${base}/members/${b.user_id}`, { roles: ["1000000000000000009"] }, owner.access_token),
            404,
            10011
          )
          yield* expectError(yield* patch(`${base}/members/@me`, { nick: "x".repeat(33) }, a.access_token), 400, 50035)

          const [removed] = yield* eventsDuring(1, del(`${base}/members/${b.user_id}`, owner.access_token))
          expect(removed).toMatchObject({
            type: "GUILD_MEMBER_REMOVE",
            guildIds: [guild.id],
            data: { guild_id: guild.id }
          })
          yield* expectError(yield* del(`${base}/members/${b.user_id}`, owner.access_token), 404, 10007)
          yield* expectError(yield* get(`${base}`, b.access_token), 403, 50001)
        })
      )

      it.effect("bans keep a user out (40007) with the reason from X-Audit-Log-Reason; unban lets them back", () =>
        Effect.gen(function* () {
          const owner = yield* user("b_owner")
          const troll = yield* user("b_troll")
          const guild = yield* guildWith(owner.access_token, [troll.access_token])
          const base = `/api/v10/guilds/${guild.id}`
          const banned = yield* put(`${base}/bans/${troll.user_id}`, {}, owner.access_token, {
            "x-audit-log-reason": encodeURIComponent("спам и флуд")
          })
          expect(banned.status).toBe(204)
          expect(yield* json(yield* get(`${base}/bans/${troll.user_id}`, owner.access_token))).toMatchObject({
            reason: "спам и флуд",
            user: { id: troll.user_id }
          })
          const list = (yield* json(yield* get(`${base}/bans`, owner.access_token))) as Array<unknown>
          expect(list).toHaveLength(1)
          yield* expectError(yield* get(base, troll.access_token), 403, 50001)
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          yield* expectError(yield* accept(troll.access_token, code), 403, 40007)
          yield* expectError(yield* put(`${base}/bans/1000000000000000009`, {}, owner.access_token), 404, 10013)
          expect((yield* del(`${base}/bans/${troll.user_id}`, owner.access_token)).status).toBe(204)
          yield* expectError(yield* del(`${base}/bans/${troll.user_id}`, owner.access_token), 404, 10026)
          yield* expectError(yield* get(`${base}/bans/${troll.user_id}`, owner.access_token), 404, 10026)
          expect((yield* accept(troll.access_token, code)).status).toBe(200)
        })
      )
    })
  })

  describe("Roles", () => {
    layer(host())((it) => {
      it.effect("creates, edits, orders and deletes roles; permissions travel as strings", () =>
        Effect.gen(function* () {
          const owner = yield* user("r_owner")
          const guild = yield* createGuild(owner.access_token)
          const base = `/api/v10/guilds/${guild.id}/roles`
          const created = yield* post(
            base,
            { name: "mods", permissions: "6", color: 0xff0000, hoist: true },
            owner.access_token
          )
          expect(created.status).toBe(200)
          const role = (yield* json(created)) as { id: string }
          expect(role).toMatchObject({ name: "mods", permissions: "6", color: 0xff0000, hoist: true, position: 1 })
          const numeric = (yield* json(yield* post(base, { permissions: 8 }, owner.access_token))) as { id: string }
          expect(numeric).toMatchObject({ name: "new role", permissions: "8" })
          const edited = yield* patch(
            `${base}/${role.id}`,
            { name: "moderators", permissions: "2" },
            owner.access_token
          )
          expect(yield* json(edited)).toMatchObject({ name: "moderators", permissions: "2" })
          const ordered = (yield* json(
            yield* patch(base, [{ id: role.id, position: 2 }], owner.access_token)
          )) as Array<{
            id: string
            position: number
          }>
          expect(ordered.find((r) => r.id === role.id)?.position).toBe(2)
          expect(yield* json(yield* get(`${base}/${role.id}`, owner.access_token))).toMatchObject({
            name: "moderators"
          })
          yield* expectError(
            yield* patch(`${base}/${guild.id}`, { name: "everyone else" }, owner.access_token),
            400,
            50035
          )
          yield* expectError(yield* del(`${base}/${guild.id}`, owner.access_token), 403, 50013)
          expect((yield* del(`${base}/${role.id}`, owner.access_token)).status).toBe(204)
          yield* expectError(yield* del(`${base}/${role.id}`, owner.access_token), 404, 10011)
          yield* expectError(yield* get(`${base}/${role.id}`, owner.access_token), 404, 10011)
          yield* expectError(yield* post(base, { permissions: "abc" }, owner.access_token), 400, 50035)
        })
      )

      it.effect("a guild holds 250 roles (30005)", () =>
        Effect.gen(function* () {
          const owner = yield* user("r_many")
          const guild = yield* createGuild(owner.access_token)
          const h = yield* TestHost.TestHost
          yield* h.run(
            Effect.gen(function* () {
              const repo = yield* GuildsRepo.GuildsRepo
              const ids = yield* Snowflake.SnowflakeGenerator
              for (let i = 0; i < 248; i++)
                yield* repo.createRole({
                  id: yield* ids.next,
                  guildId: guild.id as Snowflake.Snowflake,
                  name: `r${i}`,
                  permissions: 0n,
                  position: 1,
                  color: 0,
                  hoist: false,
                  mentionable: false,
                  managed: false,
                  botId: null
                })
            })
          )
          expect((yield* post(`/api/v10/guilds/${guild.id}/roles`, {}, owner.access_token)).status).toBe(200)
          yield* expectError(yield* post(`/api/v10/guilds/${guild.id}/roles`, {}, owner.access_token), 400, 30005)
        })
      )
    })
  })

  describe("Channels", () => {
    layer(host())((it) => {
      it.effect("creates text, voice and categories; edits, overwrites and deletes them", () =>
        Effect.gen(function* () {
          const owner = yield* user("c_owner")
          const guild = yield* createGuild(owner.access_token)
          const base = `/api/v10/guilds/${guild.id}/channels`
          const category = (yield* json(yield* post(base, { name: "Team", type: 4 }, owner.access_token))) as {
            id: string
          }
          const made = yield* post(
            base,
            { name: "Dev Talk", topic: "code", parent_id: category.id, rate_limit_per_user: 5 },
            owner.access_token
          )
          expect(made.status).toBe(201)
          const text = (yield* json(made)) as { id: string }
          expect(text).toMatchObject({
            type: 0,
            name: "dev-talk",
            topic: "code",
            parent_id: category.id,
            rate_limit_per_user: 5
          })
          const voice = (yield* json(
            yield* post(base, { name: "Lounge", type: 2, user_limit: 5 }, owner.access_token)
          )) as { id: string }
          expect(voice).toMatchObject({ type: 2, name: "Lounge", user_limit: 5, bitrate: 64000 })
          const badParent = yield* expectError(
            yield* post(base, { name: "x", parent_id: voice.id }, owner.access_token),
            400,
            50035
          )
          expect(badParent).toMatchObject({ errors: { parent_id: {} } })
          yield* expectError(yield* post(base, { name: "" }, owner.access_token), 400, 50035)

          const path = `/api/v10/channels/${text.id}`
          expect(yield* json(yield* patch(path, { name: "New Name", nsfw: true }, owner.access_token))).toMatchObject({
            name: "new-name",
            nsfw: true
          })
          expect(
            (yield* put(`${path}/permissions/${guild.id}`, { type: 0, deny: "1024" }, owner.access_token)).status
          ).toBe(204)
          expect(yield* json(yield* get(path, owner.access_token))).toMatchObject({
            permission_overwrites: [{ id: guild.id, type: 0, allow: "0", deny: "1024" }]
          })
          yield* expectError(
            yield* put(`${path}/permissions/1000000000000000009`, { type: 0 }, owner.access_token),
            400,
            50035
          )
          expect((yield* del(`${path}/permissions/${guild.id}`, owner.access_token)).status).toBe(204)
          expect(yield* json(yield* get(path, owner.access_token))).toMatchObject({ permission_overwrites: [] })

          const deleted = yield* del(path, owner.access_token)
          expect(deleted.status).toBe(200)
          expect(yield* json(deleted)).toMatchObject({ id: text.id })
          yield* expectError(yield* get(path, owner.access_token), 404, 10003)
          yield* expectError(yield* del(path, owner.access_token), 404, 10003)
          // children of a deleted category move to the top level
          const child = (yield* json(
            yield* post(base, { name: "kid", parent_id: category.id }, owner.access_token)
          )) as {
            id: string
          }
          yield* del(`/api/v10/channels/${category.id}`, owner.access_token)
          expect(yield* json(yield* get(`/api/v10/channels/${child.id}`, owner.access_token))).toMatchObject({
            parent_id: null
          })
        })
      )

      it.effect("a guild holds 500 channels (30013)", () =>
        Effect.gen(function* () {
          const owner = yield* user("c_many")
          const guild = yield* createGuild(owner.access_token)
          const h = yield* TestHost.TestHost
          yield* h.run(
            Effect.gen(function* () {
              const repo = yield* GuildsRepo.GuildsRepo
              const ids = yield* Snowflake.SnowflakeGenerator
              // four starting channels + 495 = 499
              for (let i = 0; i < 495; i++)
                yield* repo.createChannel({
                  id: yield* ids.next,
                  guildId: guild.id as Snowflake.Snowflake,
                  type: 0,
                  name: `c${i}`,
                  position: i,
                  parentId: null,
                  topic: null,
                  nsfw: false,
                  rateLimitPerUser: 0,
                  bitrate: 0,
                  userLimit: 0,
                  overwrites: []
                })
            })
          )
          const base = `/api/v10/guilds/${guild.id}/channels`
          expect((yield* post(base, { name: "last" }, owner.access_token)).status).toBe(201)
          yield* expectError(yield* post(base, { name: "too many" }, owner.access_token), 400, 30013)
        })
      )
    })
  })

  describe("Invitations", () => {
    layer(host())((it) => {
      it.effect("an invite is shown to anyone with its code, joins once, and sends GUILD_CREATE", () =>
        Effect.gen(function* () {
          const owner = yield* user("i_owner")
          const guest = yield* user("i_guest")
          const guild = yield* createGuild(owner.access_token, "Invited")
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id, { max_age: 3600, max_uses: 0 })
          expect(code).toMatch(/^[A-Za-z0-9]{10}$/)
          const shown = yield* get(`/api/v10/invites/${code}?with_counts=true`, guest.access_token)
          expect(yield* json(shown)).toMatchObject({
            code,
            guild: { id: guild.id, name: "Invited" },
            channel: { id: guild.system_channel_id, type: 0, name: "general" },
            inviter: { id: owner.user_id },
            approximate_member_count: 1
          })
          const events = yield* eventsDuring(2, accept(guest.access_token, code))
          expect(events.map((e) => e.type)).toEqual(["GUILD_MEMBER_ADD", "GUILD_CREATE"])
          expect(events[1]).toMatchObject({
            userIds: [guest.user_id],
            data: {
              id: guild.id,
              member_count: 2,
              unavailable: false,
              members: [{ user: { id: guest.user_id } }],
              roles: [{ id: guild.id }]
            }
          })
          const again = yield* accept(guest.access_token, code)
          expect(again.status).toBe(200)
          expect(yield* json(again)).toMatchObject({ code, new_member: false })
          const listed = (yield* json(yield* get(`/api/v10/guilds/${guild.id}/invites`, owner.access_token))) as Array<{
            uses: number
          }>
          expect(listed).toMatchObject([{ code, uses: 1, max_age: 3600, max_uses: 0, temporary: false }])
          yield* expectError(yield* get(`/api/v10/guilds/${guild.id}/invites`, guest.access_token), 403, 50013)
          expect(
            (yield* json(
              yield* get(`/api/v10/channels/${guild.system_channel_id}/invites`, owner.access_token)
            )) as Array<unknown>
          ).toHaveLength(1)
          // without unique, the same settings hand back the same invite
          const same = yield* inviteTo(owner.access_token, guild.system_channel_id, { max_age: 3600 })
          expect(same).toBe(code)
          yield* expectError(yield* get("/api/v10/invites/nope", guest.access_token), 404, 10006)
          const revoked = yield* del(`/api/v10/invites/${code}`, owner.access_token)
          expect(revoked.status).toBe(200)
          expect(yield* json(revoked)).toMatchObject({ code })
          yield* expectError(yield* get(`/api/v10/invites/${code}`, guest.access_token), 404, 10006)
          yield* expectError(
            yield* post(`/api/v10/channels/${guild.roles[0]?.id}/invites`, {}, owner.access_token),
            404,
            10003
          )
        })
      )

      it.effect("max uses and max age are honoured (10006 once used up or expired)", () =>
        Effect.gen(function* () {
          const owner = yield* user("i_limits")
          const first = yield* user("i_first")
          const second = yield* user("i_second")
          const guild = yield* createGuild(owner.access_token)
          const once = yield* inviteTo(owner.access_token, guild.system_channel_id, { max_uses: 1, unique: true })
          expect((yield* accept(first.access_token, once)).status).toBe(200)
          yield* expectError(yield* accept(second.access_token, once), 404, 10006)
          const brief = yield* inviteTo(owner.access_token, guild.system_channel_id, { max_age: 60, unique: true })
          const h = yield* TestHost.TestHost
          yield* h.adjustClock("61 seconds")
          yield* expectError(yield* accept(second.access_token, brief), 404, 10006)
          yield* expectError(
            yield* post(
              `/api/v10/channels/${guild.system_channel_id}/invites`,
              { max_age: 604801 },
              owner.access_token
            ),
            400,
            50035
          )
        })
      )

      it.effect("a guild holds 1000 live invites (30016)", () =>
        Effect.gen(function* () {
          const owner = yield* user("i_many")
          const guild = yield* createGuild(owner.access_token)
          const h = yield* TestHost.TestHost
          yield* h.run(
            Effect.gen(function* () {
              const repo = yield* GuildsRepo.GuildsRepo
              const now = yield* DateTime.now
              for (let i = 0; i < 999; i++) {
                const invite: Guild.Invite = {
                  code: `many${guild.id.slice(-6)}${i}`,
                  guildId: guild.id as Snowflake.Snowflake,
                  channelId: guild.system_channel_id as Snowflake.Snowflake,
                  inviterId: owner.user_id as Snowflake.Snowflake,
                  maxAge: 0,
                  maxUses: 0,
                  uses: 0,
                  temporary: false,
                  createdAt: now
                }
                yield* repo.createInvite(invite, now)
              }
            })
          )
          const path = `/api/v10/channels/${guild.system_channel_id}/invites`
          expect((yield* post(path, { unique: true }, owner.access_token)).status).toBe(200)
          yield* expectError(yield* post(path, { unique: true }, owner.access_token), 400, 30016)
        })
      )

      it.effect("joining checks the verification level (40002) and the account restriction (20025)", () =>
        Effect.gen(function* () {
          const owner = yield* user("v_owner")
          const newcomer = yield* user("v_new")
          const guild = yield* createGuild(owner.access_token, "Strict", { verification_level: 2 })
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          // medium: the account must be five minutes old
          yield* expectError(yield* accept(newcomer.access_token, code), 403, 40002)
          const h = yield* TestHost.TestHost
          yield* h.adjustClock("5 minutes")
          expect((yield* accept(newcomer.access_token, code)).status).toBe(200)

          // very high: a verified phone; an account registered by e-mail has none
          const strictest = yield* createGuild(owner.access_token, "Phones only", { verification_level: 4 })
          const phoneCode = yield* inviteTo(owner.access_token, strictest.system_channel_id)
          const started = (yield* json(
            yield* post(
              "/api/v10/auth/register/email",
              { email: "guild.mail@example.org", captcha_token: "dev" },
              undefined,
              "8.8.8.8"
            )
          )) as { verification_id: string }
          const mailed = yield* post("/api/v10/auth/register/verify", {
            verification_id: started.verification_id,
            code: (yield* awaitMessage("guild.mail@example.org", "register"))?.code,
            username: "guild_mailer",
            password: "correct horse battery",
            date_of_birth: "1990-01-01",
            consent: true
          })
          const mailer = (yield* json(mailed)) as { access_token: string }
          yield* h.adjustClock("5 minutes")
          yield* expectError(yield* accept(mailer.access_token, phoneCode), 403, 40002)
          expect((yield* accept(newcomer.access_token, phoneCode)).status).toBe(200)

          // a shadow restriction: no invitations either way
          const staff = yield* register("+79651000000", "guild_staff")
          const restricted = yield* user("v_restricted")
          const open = yield* createGuild(restricted.access_token, "Own")
          const restrict = yield* put(
            `/api/v10/moderation/users/${restricted.user_id}/restriction`,
            { reason: "spam" },
            staff.access_token
          )
          expect(restrict.status).toBe(200)
          yield* expectError(yield* accept(restricted.access_token, code), 403, 20025)
          yield* expectError(
            yield* post(`/api/v10/channels/${open.system_channel_id}/invites`, {}, restricted.access_token),
            403,
            20025
          )
        })
      )
    })
  })
}
