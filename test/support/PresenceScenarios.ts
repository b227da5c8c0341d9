/**
 * Presence through the public API and real gateway sockets (the test host behind Node's HTTP
 * server, raw `ws` clients, the host's test clock): op 3 reaching another member, invisible shown as
 * offline, the grace before offline after the last session, a custom status as an activity of type
 * 4, GUILD_PRESENCES filtering for bots, friends, presences in READY and GUILD_CREATE,
 * `approximate_presence_count` and the catalogue's order by online members. Run on memory
 * (test/presence.test.ts), with presence in Redis (the same file, when REDIS_URL is set) and on
 * PostgreSQL (adapters/postgres/test/PresenceRoutes.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import type { PresenceStore } from "@veche/gateway"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { RelationshipsRepo } from "@veche/users"
import { ConfigProvider, DateTime, Duration, Effect, Layer } from "effect"
import { json, type Registered, register, send } from "./Accounts.ts"
import { createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { addBotToGuild } from "./Bots.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { accept, guildWith, inviteTo } from "./Guilds.ts"

const GUILDS = 1 << 0
const GUILD_PRESENCES = 1 << 8
const GATEWAY_PRESENCE_LIMITED = 1 << 13
const GRACE_MS = 5000

interface PresenceData {
  readonly user: { readonly id: string }
  readonly guild_id?: string
  readonly status: string
  readonly activities: ReadonlyArray<Record<string, unknown>>
}

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const connect = Effect.flatMap(Effect.service(GatewayServer.Listening), (listening) =>
  Effect.promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`))
)

const identify = (token: string, extra: Record<string, unknown> = {}) => ({
  op: 2,
  d: { token, properties: { os: "linux", browser: "test", device: "test" }, ...extra }
})

/** A session identified and past its READY and GUILD_CREATEs (`guilds` of them). */
const online = (token: string, guilds: number, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const client = yield* connect
    client.send(identify(token, extra))
    const ready = yield* promise(() => client.nextDispatch("READY"))
    const created: Array<GatewayServer.Frame> = []
    for (let i = 0; i < guilds; i++) created.push(yield* promise(() => client.nextDispatch("GUILD_CREATE")))
    return { client, ready, created }
  })

/** A GUILD_CREATE's `presences` (undefined when the frame or the field is missing). */
const presencesIn = (frame: GatewayServer.Frame | undefined): ReadonlyArray<PresenceData> | undefined =>
  (frame?.d as { presences?: ReadonlyArray<PresenceData> } | undefined)?.presences

/** The next PRESENCE_UPDATE about `userId` (others skipped). */
const presenceOf = (client: GatewayServer.RawClient, userId: string) =>
  promise(async () => {
    for (;;) {
      const frame = await client.nextDispatch("PRESENCE_UPDATE")
      const data = frame.d as PresenceData
      if (data.user.id === userId) return data
    }
  })

/** PRESENCE_UPDATEs about `userId` among what arrived meanwhile (proves none came). */
const unreadPresencesOf = (client: GatewayServer.RawClient, userId: string) =>
  Effect.map(
    promise(() => client.unread(300)),
    (frames) => frames.filter((frame) => frame.t === "PRESENCE_UPDATE" && (frame.d as PresenceData).user.id === userId)
  )

const op3 = (status: string, activities: ReadonlyArray<unknown> = []) => ({
  op: 3,
  d: { since: null, activities, status, afk: false }
})

const presenceCount = (guildId: string, token: string) =>
  Effect.flatMap(send("GET", `/api/v10/guilds/${guildId}?with_counts=true`, undefined, token), (response) =>
    Effect.map(json(response), (body) => (body as { approximate_presence_count: number }).approximate_presence_count)
  )

/**
 * Moves the host's clock a second at a time, letting the server's work between (a close being
 * handled, a sweep's Redis round trip) finish in real time before the next second passes.
 */
const advance = (seconds: number) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    Effect.gen(function* () {
      yield* promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
      for (let i = 0; i < seconds; i++) {
        yield* host.adjustClock(Duration.seconds(1))
        yield* promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      }
    })
  )

const settings = (token: string, body: Record<string, unknown>) =>
  Effect.map(send("PATCH", "/api/v10/users/@me/settings", body, token), (response) => expect(response.status).toBe(200))

export interface Options {
  readonly repositories?: (() => Layer.Layer<TestHost.Repositories>) | undefined
  /** Presence in Redis (each host its own key prefix) instead of in memory. */
  readonly presence?: (() => Layer.Layer<PresenceStore.PresenceStore>) | undefined
  readonly label?: string | undefined
}

export const presenceScenarios = (options: Options = {}) => {
  let phone = 79065550000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 10000}`)
  const host = (env: Record<string, string> = {}) =>
    GatewayServer.layer({
      repositories: options.repositories?.(),
      presence: options.presence?.(),
      presenceGraceMs: GRACE_MS,
      rateLimits: { enabled: false }
    }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

  describe(`presence through the gateway${options.label ?? ""}`, () => {
    layer(host(), { timeout: "90 seconds" })((it) => {
      it.effect("op 3 reaches another member's session, once per change; READY, GUILD_CREATE and counts show it", () =>
        Effect.gen(function* () {
          const owner = yield* user("pr_owner")
          const member = yield* user("pr_member")
          const guild = yield* guildWith(owner.access_token, [member.access_token], "Presence Guild")
          const watcher = yield* online(owner.access_token, 1)
          // the owner's own presence is not told back to them, and they are counted
          expect(yield* presenceCount(guild.id, owner.access_token)).toBe(1)

          const { client } = yield* online(member.access_token, 1)
          expect(yield* presenceOf(watcher.client, member.user_id)).toEqual({
            user: { id: member.user_id },
            guild_id: guild.id,
            status: "online",
            activities: [],
            client_status: { web: "online" }
          })
          expect(yield* presenceCount(guild.id, owner.access_token)).toBe(2)

          client.send(op3("idle", [{ name: "Chess", type: 0 }]))
          expect(yield* presenceOf(watcher.client, member.user_id)).toMatchObject({
            guild_id: guild.id,
            status: "idle",
            activities: [{ type: 0, name: "Chess" }]
          })
          // the same again changes nothing others see: no dispatch
          client.send(op3("idle", [{ name: "Chess", type: 0 }]))
          expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])

          // a new session of the owner: GUILD_CREATE lists who is online, with their presence
          const again = yield* online(owner.access_token, 1)
          const presences = presencesIn(again.created[0])
          expect(presences?.find((one) => one.user.id === member.user_id)).toMatchObject({
            status: "idle",
            activities: [{ type: 0, name: "Chess" }]
          })
          expect(presences?.map((one) => one.user.id)).toContain(owner.user_id)

          // a bad op 3 is a decode error, as on the platform
          client.send({ op: 3, d: { since: null, activities: [], status: "away", afk: false } })
          expect((yield* promise(() => client.closed)).code).toBe(4002)
          yield* promise(() => again.client.close())
          yield* promise(() => watcher.client.close())
        })
      )

      it.effect(
        "invisible shows offline; a custom status is an activity of type 4; the status survives reconnects",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("pr_host")
            const member = yield* user("pr_ghost")
            const guild = yield* guildWith(owner.access_token, [member.access_token], "Ghost Guild")
            const watcher = yield* online(owner.access_token, 1)
            const first = yield* online(member.access_token, 1)
            yield* presenceOf(watcher.client, member.user_id)

            yield* settings(member.access_token, { custom_status: { text: "busy building" } })
            expect(yield* presenceOf(watcher.client, member.user_id)).toMatchObject({
              status: "online",
              activities: [{ type: 4, name: "Custom Status", state: "busy building", emoji: null }]
            })

            yield* settings(member.access_token, { status: "invisible" })
            expect(yield* presenceOf(watcher.client, member.user_id)).toEqual({
              user: { id: member.user_id },
              guild_id: guild.id,
              status: "offline",
              activities: [],
              client_status: {}
            })
            expect(yield* presenceCount(guild.id, owner.access_token)).toBe(1)
            // the session asking for online changes nothing: the settings' invisible wins
            first.client.send(op3("online"))
            // a second session of the invisible user: still offline to others, absent from GUILD_CREATE
            const second = yield* online(member.access_token, 1)
            expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])
            const snapshot = yield* online(owner.access_token, 1)
            const listed = presencesIn(snapshot.created[0])
            expect(listed?.map((one) => one.user.id)).not.toContain(member.user_id)

            // back to online: shown again, with the custom status
            yield* settings(member.access_token, { status: "dnd" })
            expect(yield* presenceOf(watcher.client, member.user_id)).toMatchObject({
              status: "dnd",
              activities: [{ type: 4, state: "busy building" }]
            })
            // the choice survives reconnects: a new session starts dnd (nothing changes for others)
            yield* promise(() => first.client.close())
            yield* promise(() => second.client.close())
            const third = yield* online(member.access_token, 1)
            expect((third.ready.d as { user_settings: { status: string } }).user_settings.status).toBe("dnd")
            expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])
            yield* promise(() => third.client.close())
            yield* promise(() => snapshot.client.close())
            yield* promise(() => watcher.client.close())
          })
      )

      it.effect("offline only after the grace following the last session; a reconnect within it does not flap", () =>
        Effect.gen(function* () {
          const owner = yield* user("pr_keeper")
          const member = yield* user("pr_leaver")
          const guild = yield* guildWith(owner.access_token, [member.access_token], "Grace Guild")
          const watcher = yield* online(owner.access_token, 1)
          const first = yield* online(member.access_token, 1)
          yield* presenceOf(watcher.client, member.user_id)

          // closed, and back within the grace: no offline, no second online
          yield* promise(() => first.client.close())
          yield* advance(2)
          const back = yield* online(member.access_token, 1)
          yield* advance(6)
          expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])

          // the last session closes: still online during the grace, offline after it
          yield* promise(() => back.client.close())
          yield* advance(3)
          expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])
          expect(yield* presenceCount(guild.id, owner.access_token)).toBe(2)
          yield* advance(3)
          expect(yield* presenceOf(watcher.client, member.user_id)).toMatchObject({
            guild_id: guild.id,
            status: "offline",
            activities: []
          })
          expect(yield* presenceCount(guild.id, owner.access_token)).toBe(1)
          yield* promise(() => watcher.client.close())
        })
      )

      it.effect(
        "bots: PRESENCE_UPDATE and GUILD_CREATE presences need GUILD_PRESENCES (privileged); friends hear directly",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("pr_botowner")
            const friend = yield* user("pr_friend")
            const guild = yield* guildWith(owner.access_token, [], "Bot Presence Guild")
            const app = yield* createApplication(owner.access_token, "pr presence bot")
            const token = yield* resetBotToken(owner.access_token, app.id)
            yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: "pr presence bot" })
            const flagged = yield* send(
              "PATCH",
              `/api/v10/applications/${app.id}`,
              { flags: GATEWAY_PRESENCE_LIMITED },
              owner.access_token
            )
            expect(flagged.status).toBe(200)
            // a friendship (no route writes one yet): straight into the repository, both sides
            const host = yield* TestHost.TestHost
            const since = DateTime.makeUnsafe(Date.UTC(2026, 0, 1))
            yield* host.run(
              Effect.gen(function* () {
                const repo = yield* RelationshipsRepo.RelationshipsRepo
                const a = Snowflake.Snowflake.make(owner.user_id)
                const b = Snowflake.Snowflake.make(friend.user_id)
                yield* repo.put({ userId: a, otherId: b, type: 1, nickname: null, since })
                yield* repo.put({ userId: b, otherId: a, type: 1, nickname: null, since })
              })
            )

            // one bot identify per 5 s (max_concurrency 1): the clock moves between them
            const blind = yield* online(token, 1, { intents: GUILDS })
            yield* advance(5)
            const seeing = yield* online(token, 1, { intents: GUILDS | GUILD_PRESENCES })
            const friendSession = yield* online(friend.access_token, 0)
            const ownerSession = yield* online(owner.access_token, 1)
            // the friend hears of the owner directly (no guild in common: no guild_id)
            expect(yield* presenceOf(friendSession.client, owner.user_id)).toEqual({
              user: { id: owner.user_id },
              status: "online",
              activities: [],
              client_status: { web: "online" }
            })
            // the bot with the intent hears of the owner through the guild; the one without does not
            expect(yield* presenceOf(seeing.client, owner.user_id)).toMatchObject({
              guild_id: guild.id,
              status: "online"
            })
            ownerSession.client.send(op3("dnd"))
            expect(yield* presenceOf(seeing.client, owner.user_id)).toMatchObject({ status: "dnd" })
            expect(yield* presenceOf(friendSession.client, owner.user_id)).toMatchObject({ status: "dnd" })
            expect(yield* unreadPresencesOf(blind.client, owner.user_id)).toEqual([])
            // the bot's own presence from IDENTIFY: the owner (a user: every intent) sees it
            yield* advance(5)
            const shown = yield* online(token, 1, {
              intents: GUILDS,
              presence: { since: null, activities: [{ name: "with humans", type: 0 }], status: "idle", afk: false }
            })
            expect(yield* presenceOf(ownerSession.client, app.id)).toMatchObject({
              guild_id: guild.id,
              status: "idle",
              activities: [{ type: 0, name: "with humans" }]
            })
            // GUILD_CREATE: presences only with the intent
            yield* advance(5)
            const withIntent = yield* online(token, 1, { intents: GUILDS | GUILD_PRESENCES })
            const listed = presencesIn(withIntent.created[0])
            expect(listed?.find((one) => one.user.id === owner.user_id)).toMatchObject({ status: "dnd" })
            expect(presencesIn(blind.created[0])).toEqual([])
            // READY of a user lists present friends
            const friendAgain = yield* online(friend.access_token, 0)
            expect((friendAgain.ready.d as { presences: ReadonlyArray<PresenceData> }).presences).toEqual([
              { user: { id: owner.user_id }, status: "dnd", activities: [], client_status: { web: "dnd" } }
            ])
            for (const session of [blind, seeing, friendSession, ownerSession, shown, withIntent, friendAgain])
              yield* promise(() => session.client.close())
          })
      )

      it.effect("a member who joins while online counts in the new guild; invites answer the count", () =>
        Effect.gen(function* () {
          const owner = yield* user("pr_inviter")
          const joiner = yield* user("pr_joiner")
          const guild = yield* guildWith(owner.access_token, [], "Join Guild")
          const session = yield* online(joiner.access_token, 0)
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          expect((yield* accept(joiner.access_token, code)).status).toBe(200)
          yield* promise(() => session.client.nextDispatch("GUILD_CREATE"))
          // the join reaches presence through the session's GUILD_CREATE: wait for it to count
          let count = 0
          for (let i = 0; i < 50 && count < 1; i++) {
            count = yield* presenceCount(guild.id, owner.access_token)
            if (count < 1) yield* promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
          }
          expect(count).toBe(1)
          const invite = yield* send("GET", `/api/v10/invites/${code}?with_counts=true`, undefined, owner.access_token)
          expect(yield* json(invite)).toMatchObject({ approximate_member_count: 2, approximate_presence_count: 1 })
          yield* promise(() => session.client.close())
        })
      )
    })

    layer(host(), { timeout: "90 seconds" })((it) => {
      it.effect(
        "a joiner online: the guild's sessions get GUILD_MEMBER_ADD then its PRESENCE_UPDATE; its GUILD_CREATE carries presences",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("pj_owner")
            const joiner = yield* user("pj_joiner")
            const ghost = yield* user("pj_ghost")
            const guild = yield* guildWith(owner.access_token, [], "Joined While Online")
            // a bot in the guild without GUILD_PRESENCES is not told the presence
            const app = yield* createApplication(owner.access_token, "pj bot")
            const botToken = yield* resetBotToken(owner.access_token, app.id)
            yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: "pj bot" })
            const ownerSession = yield* online(owner.access_token, 1)
            const bot = yield* online(botToken, 1, { intents: GUILDS })
            const joinerSession = yield* online(joiner.access_token, 0, {
              presence: { status: "dnd", activities: [], since: null, afk: false }
            })
            yield* promise(() => ownerSession.client.unread())

            const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
            expect((yield* accept(joiner.access_token, code)).status).toBe(200)
            // the joiner's GUILD_CREATE: the owner and the bot online, and the joiner themselves
            const created = yield* promise(() => joinerSession.client.nextDispatch("GUILD_CREATE"))
            expect(
              presencesIn(created)
                ?.map((p) => [p.user.id, p.status])
                .sort()
            ).toEqual(
              [
                [owner.user_id, "online"],
                [app.id, "online"],
                [joiner.user_id, "dnd"]
              ].sort()
            )
            // the owner: the member first, then the presence, naming the guild
            const seen = yield* promise(async () => {
              const out: Array<GatewayServer.Frame> = []
              while (out.filter((f) => f.t === "PRESENCE_UPDATE").length === 0) {
                const frame = await ownerSession.client.next()
                if (frame.t === "GUILD_MEMBER_ADD" || frame.t === "PRESENCE_UPDATE") out.push(frame)
              }
              return out
            })
            expect(seen.map((f) => f.t)).toEqual(["GUILD_MEMBER_ADD", "PRESENCE_UPDATE"])
            expect(seen[1]?.d).toMatchObject({ user: { id: joiner.user_id }, guild_id: guild.id, status: "dnd" })
            // once only, and not to the bot without the intent
            expect(yield* unreadPresencesOf(ownerSession.client, joiner.user_id)).toEqual([])
            expect(yield* unreadPresencesOf(bot.client, joiner.user_id)).toEqual([])

            // an invisible joiner: nothing told, and not in the presences
            const ghostSession = yield* online(ghost.access_token, 0, {
              presence: { status: "invisible", activities: [], since: null, afk: false }
            })
            expect((yield* accept(ghost.access_token, code)).status).toBe(200)
            const ghostCreated = yield* promise(() => ghostSession.client.nextDispatch("GUILD_CREATE"))
            expect(
              presencesIn(ghostCreated)
                ?.map((p) => p.user.id)
                .sort()
            ).toEqual([owner.user_id, app.id, joiner.user_id].sort())
            yield* promise(() => ownerSession.client.nextDispatch("GUILD_MEMBER_ADD"))
            expect(yield* unreadPresencesOf(ownerSession.client, ghost.user_id)).toEqual([])
            for (const session of [ownerSession, bot, joinerSession, ghostSession])
              yield* promise(() => session.client.close())
          })
      )
    })

    layer(host(), { timeout: "90 seconds" })((it) => {
      it.effect("op 3 past 5 in 60 s is dropped silently (the connection stays); the next window passes again", () =>
        Effect.gen(function* () {
          const owner = yield* user("pl_owner")
          const member = yield* user("pl_member")
          yield* guildWith(owner.access_token, [member.access_token], "Presence Limit Guild")
          const watcher = yield* online(owner.access_token, 1)
          const { client } = yield* online(member.access_token, 1)
          yield* presenceOf(watcher.client, member.user_id)
          // six changes: five reach the guild, the sixth (back to online) is dropped
          const statuses = ["idle", "dnd", "idle", "dnd", "idle", "online"]
          for (const status of statuses) client.send(op3(status))
          const told: Array<string> = []
          for (let i = 0; i < 5; i++) told.push((yield* presenceOf(watcher.client, member.user_id)).status)
          expect(told).toEqual(statuses.slice(0, 5))
          expect(yield* unreadPresencesOf(watcher.client, member.user_id)).toEqual([])
          // still open and answering
          client.send({ op: 1, d: null })
          expect((yield* promise(() => client.next())).op).toBe(11)
          // a minute later (heartbeats kept), op 3 passes again
          yield* advance(30)
          client.send({ op: 1, d: null })
          watcher.client.send({ op: 1, d: null })
          yield* advance(31)
          client.send({ op: 1, d: null })
          watcher.client.send({ op: 1, d: null })
          client.send(op3("dnd"))
          expect((yield* presenceOf(watcher.client, member.user_id)).status).toBe("dnd")
          yield* promise(() => client.close())
          yield* promise(() => watcher.client.close())
        })
      )
    })

    const lowered = {
      SERVICE_DISCOVERY_MIN_MEMBERS: "2",
      SERVICE_DISCOVERY_MIN_AGE_DAYS: "0",
      SERVICE_DISCOVERY_REQUIRE_OWNER_2FA: "false"
    }
    layer(host(lowered), { timeout: "90 seconds" })((it) => {
      it.effect("joining from the catalogue while online: the guild hears PRESENCE_UPDATE after GUILD_MEMBER_ADD", () =>
        Effect.gen(function* () {
          const owner = yield* user("pc_owner")
          const member = yield* user("pc_member")
          const joiner = yield* user("pc_joiner")
          const guild = yield* guildWith(owner.access_token, [member.access_token], "Catalogue Join Presence")
          const patched = yield* send(
            "PATCH",
            `/api/v10/guilds/${guild.id}`,
            { verification_level: 1, rules_channel_id: guild.system_channel_id },
            owner.access_token
          )
          expect(patched.status).toBe(200)
          const published = yield* send(
            "PUT",
            `/api/v10/guilds/${guild.id}/discovery`,
            { category: "gaming", description: "A friendly place to talk about strategy games, every single day." },
            owner.access_token
          )
          expect(published.status).toBe(200)
          const watcher = yield* online(owner.access_token, 1)
          const session = yield* online(joiner.access_token, 0, {
            presence: { status: "idle", activities: [], since: null, afk: false }
          })
          yield* promise(() => watcher.client.unread())
          const joined = yield* send(
            "POST",
            `/api/v10/discovery/guilds/${guild.id}/join`,
            undefined,
            joiner.access_token
          )
          expect(joined.status).toBe(200)
          const created = yield* promise(() => session.client.nextDispatch("GUILD_CREATE"))
          expect(
            presencesIn(created)
              ?.map((p) => [p.user.id, p.status])
              .sort()
          ).toEqual(
            [
              [owner.user_id, "online"],
              [joiner.user_id, "idle"]
            ].sort()
          )
          const add = yield* promise(() => watcher.client.nextDispatch("GUILD_MEMBER_ADD"))
          expect(add.d).toMatchObject({ user: { id: joiner.user_id } })
          // read after the member: the presence follows it
          expect(yield* presenceOf(watcher.client, joiner.user_id)).toMatchObject({
            guild_id: guild.id,
            status: "idle"
          })
          yield* promise(() => session.client.close())
          yield* promise(() => watcher.client.close())
        })
      )

      it.effect("the catalogue sorts by members online, and its cards and preview carry the count", () =>
        Effect.gen(function* () {
          const listedGuild = (name: string, members: ReadonlyArray<Registered>, owner: Registered) =>
            Effect.gen(function* () {
              const guild = yield* guildWith(
                owner.access_token,
                members.map((m) => m.access_token),
                name
              )
              const patched = yield* send(
                "PATCH",
                `/api/v10/guilds/${guild.id}`,
                { verification_level: 1, rules_channel_id: guild.system_channel_id },
                owner.access_token
              )
              expect(patched.status).toBe(200)
              const published = yield* send(
                "PUT",
                `/api/v10/guilds/${guild.id}/discovery`,
                {
                  category: "gaming",
                  description: "A friendly place to talk about strategy games, every single day."
                },
                owner.access_token
              )
              expect(published.status).toBe(200)
              return guild
            })
          const bigOwner = yield* user("pr_big")
          const bigMembers = [yield* user("pr_big_a"), yield* user("pr_big_b")]
          const smallOwner = yield* user("pr_small")
          const smallMember = yield* user("pr_small_a")
          const big = yield* listedGuild("Quasar Strategy Big", bigMembers, bigOwner)
          const small = yield* listedGuild("Quasar Strategy Small", [smallMember], smallOwner)
          const search = Effect.flatMap(send("GET", "/api/v10/discovery/guilds?q=quasar"), (response) =>
            Effect.map(
              json(response),
              (body) => (body as { guilds: ReadonlyArray<{ id: string; approximate_presence_count: number }> }).guilds
            )
          )
          // nobody online: more members first
          expect((yield* search).map((card) => card.id)).toEqual([big.id, small.id])
          const a = yield* online(smallOwner.access_token, 1)
          const b = yield* online(smallMember.access_token, 1)
          const cards = yield* search
          expect(cards.map((card) => card.id)).toEqual([small.id, big.id])
          expect(cards[0]?.approximate_presence_count).toBe(2)
          const preview = yield* send("GET", `/api/v10/guilds/${small.id}/preview`)
          expect(yield* json(preview)).toMatchObject({ approximate_presence_count: 2 })
          yield* promise(() => a.client.close())
          yield* promise(() => b.client.close())
        })
      )
    })
  })
}
