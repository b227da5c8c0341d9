/**
 * Developer applications and bot tokens through HTTP, on the repositories the caller gives (memory
 * by default; PostgreSQL in adapters/postgres/test/ApplicationRoutes.test.ts, where the creation
 * cap really races).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Totp } from "@veche/auth"
import { GuildsRepo } from "@veche/guilds"
import { OtplibTotpCodes } from "@veche/otplib"
import { Snowflake } from "@veche/platform"
import { AccountDeletion, DataExports, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { Clock, ConfigProvider, DateTime, Effect, Layer, Option } from "effect"
import { expectNotKept, json, PASSWORD, post, type Registered, register, send } from "./Accounts.ts"
import { addBotToGuild } from "./Bots.ts"
import { createGuild, inviteTo, ownershipRefused } from "./Guilds.ts"
import { dataUri, png } from "./Png.ts"
import { unzip } from "./Unzip.ts"

interface ApplicationBody {
  readonly id: string
  readonly name: string
  readonly description: string
  readonly bot_public: boolean
  readonly redirect_uris: ReadonlyArray<string>
  readonly owner?: { readonly id: string }
  readonly bot?: { readonly id: string; readonly username: string; readonly bot: boolean }
}

const API = "/api/v10"

/** A request with a bot token (`Authorization: Bot <token>`). */
export const asBot = (method: string, path: string, token: string, body?: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      method,
      headers: {
        authorization: `Bot ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

const answer = (response: Response) => Effect.map(json(response), (body) => ({ status: response.status, body }))

export const createApplication = (token: string, name: string) =>
  Effect.gen(function* () {
    const created = yield* post(`${API}/applications`, { name }, token)
    expect(created.status).toBe(201)
    return (yield* json(created)) as ApplicationBody
  })

export const resetBotToken = (token: string, applicationId: string) =>
  Effect.gen(function* () {
    const reset = yield* post(`${API}/applications/${applicationId}/bot/reset`, undefined, token)
    // the token is shown this once: no cache may keep it
    expectNotKept(reset, 200)
    return ((yield* json(reset)) as { token: string }).token
  })

const UNKNOWN_APPLICATION = { status: 404, body: { code: 10002, message: "Unknown Application" } }
const INVALID_TOKEN = { status: 401, body: { code: 50014, message: "Invalid authentication token" } }
const BOTS_CANNOT = { status: 403, body: { code: 20001, message: "Bots cannot use this endpoint" } }
const ONLY_BOTS = { status: 403, body: { code: 20002, message: "Only bots can use this endpoint" } }
const TOKEN = /^[A-Za-z0-9]+_[A-Za-z0-9_-]{43}$/

/** 20 bytes in base32, as an authenticator app makes them. */
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

export const applicationScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () => TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() })

  let phone = 79672000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)

  describe("Applications: the owner's routes", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("creates an application with its bot user, lists, reads and changes it", () =>
        Effect.gen(function* () {
          const owner = yield* user("app_owner")
          const created = yield* createApplication(owner.access_token, "My Helper")
          expect(created).toMatchObject({
            name: "My Helper",
            description: "",
            icon: null,
            summary: "",
            bot_public: true,
            bot_require_code_grant: false,
            team: null,
            flags: 0,
            redirect_uris: [],
            owner: { id: owner.user_id, bot: false },
            bot: { id: created.id, bot: true, username: "my_helper", global_name: "My Helper" }
          })
          expect(created.id).toMatch(/^\d{17,19}$/)
          // no secret is ever shown outside its reset
          expect(Object.keys(created)).not.toContain("client_secret")
          // anybody looking the bot user up sees a bot
          const seen = yield* json(yield* send("GET", `${API}/users/${created.id}`, undefined, owner.access_token))
          expect(seen).toMatchObject({ id: created.id, bot: true, username: "my_helper" })

          const listed = (yield* json(
            yield* send("GET", `${API}/applications`, undefined, owner.access_token)
          )) as ReadonlyArray<ApplicationBody>
          expect(listed.map((a) => a.id)).toEqual([created.id])
          expect(
            yield* answer(yield* send("GET", `${API}/applications/${created.id}`, undefined, owner.access_token))
          ).toMatchObject({ status: 200, body: { id: created.id, name: "My Helper" } })

          const patched = yield* send(
            "PATCH",
            `${API}/applications/${created.id}`,
            {
              name: "Helper Two",
              description: "Helps.",
              redirect_uris: ["https://example.com/cb", "http://localhost:8080/cb"],
              bot_public: false,
              bot_require_code_grant: true
            },
            owner.access_token
          )
          expect(yield* answer(patched)).toMatchObject({
            status: 200,
            body: {
              name: "Helper Two",
              description: "Helps.",
              redirect_uris: ["https://example.com/cb", "http://localhost:8080/cb"],
              bot_public: false,
              bot_require_code_grant: true
            }
          })
          // a change that names nothing keeps everything
          expect(
            yield* answer(yield* send("PATCH", `${API}/applications/${created.id}`, {}, owner.access_token))
          ).toMatchObject({ status: 200, body: { name: "Helper Two", bot_public: false } })
          // http only for localhost; names of 2-32
          for (const body of [{ redirect_uris: ["http://example.com/cb"] }, { name: "x" }]) {
            const refused = yield* send("PATCH", `${API}/applications/${created.id}`, body, owner.access_token)
            expect(refused.status).toBe(400)
            expect(((yield* json(refused)) as { code: number }).code).toBe(50035)
          }
          expect((yield* post(`${API}/applications`, { name: "" }, owner.access_token)).status).toBe(400)
        })
      )

      it.effect("PATCH sets the icon from a data URI (served under /app-icons), replaces and clears it", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const owner = yield* user("app_icon")
          const app = yield* createApplication(owner.access_token, "Pictured")
          const path = `${API}/applications/${app.id}`
          const first = yield* answer(yield* send("PATCH", path, { icon: dataUri(png(64)) }, owner.access_token))
          expect(first.status).toBe(200)
          const icon = (first.body as { icon: string }).icon
          expect(icon).toMatch(/^[0-9a-f]{32}$/)
          const served = yield* testHost.fetch(`${API}/app-icons/${app.id}/${icon}.png`)
          expect(served.status).toBe(200)
          expect(served.headers.get("content-type")).toBe("image/png")
          // the icon shows wherever the application does
          for (const read of [path, `${API}/applications`]) {
            expect(JSON.stringify(yield* json(yield* send("GET", read, undefined, owner.access_token)))).toContain(icon)
          }
          // a change that leaves the icon out keeps it
          expect(
            yield* answer(yield* send("PATCH", path, { description: "Has a face." }, owner.access_token))
          ).toMatchObject({ status: 200, body: { icon } })

          const second = yield* answer(yield* send("PATCH", path, { icon: dataUri(png(32)) }, owner.access_token))
          const replaced = (second.body as { icon: string }).icon
          expect(replaced).not.toBe(icon)
          // the replaced image is no longer served; the new one is
          expect((yield* testHost.fetch(`${API}/app-icons/${app.id}/${icon}`)).status).toBe(404)
          expect((yield* testHost.fetch(`${API}/app-icons/${app.id}/${replaced}`)).status).toBe(200)
          // someone else cannot set it
          const other = yield* user("app_icon_other")
          expect(yield* answer(yield* send("PATCH", path, { icon: dataUri(png(16)) }, other.access_token))).toEqual(
            UNKNOWN_APPLICATION
          )

          // refused images: 400 50035 on `icon`, and the icon stays
          for (const bad of [
            dataUri(png(1024, 1025)),
            `data:image/png;base64,${Buffer.from("not an image").toString("base64")}`,
            "https://example.com/icon.png",
            42
          ]) {
            const refused = yield* answer(yield* send("PATCH", path, { icon: bad }, owner.access_token))
            expect(refused).toMatchObject({ status: 400, body: { code: 50035, errors: { icon: {} } } })
          }
          expect(yield* answer(yield* send("GET", path, undefined, owner.access_token))).toMatchObject({
            body: { icon: replaced }
          })

          // null clears it, and the image goes
          expect(yield* answer(yield* send("PATCH", path, { icon: null }, owner.access_token))).toMatchObject({
            status: 200,
            body: { icon: null }
          })
          expect((yield* testHost.fetch(`${API}/app-icons/${app.id}/${replaced}`)).status).toBe(404)

          // deleting the application takes its icon with it
          const last = yield* answer(yield* send("PATCH", path, { icon: dataUri(png(24)) }, owner.access_token))
          const lastIcon = (last.body as { icon: string }).icon
          expect((yield* send("DELETE", path, undefined, owner.access_token)).status).toBe(204)
          expect((yield* testHost.fetch(`${API}/app-icons/${app.id}/${lastIcon}`)).status).toBe(404)
        })
      )

      it.effect("PATCH refuses each bad field with 400 50035 naming it, and changes nothing", () =>
        Effect.gen(function* () {
          const owner = yield* user("app_invalid")
          const app = yield* createApplication(owner.access_token, "Strict")
          const path = `${API}/applications/${app.id}`
          for (const [field, value] of [
            ["name", "x"],
            ["name", "y".repeat(33)],
            ["name", null],
            ["description", "d".repeat(401)],
            ["description", 7],
            ["bot_public", "yes"],
            ["bot_require_code_grant", null],
            ["redirect_uris", "https://example.com/cb"],
            ["redirect_uris", Array.from({ length: 11 }, (_, i) => `https://example.com/${i}`)],
            // plain http only to this machine
            ["redirect_uris", ["http://example.com/cb"]],
            ["redirect_uris", ["http://localhost.example.com/cb"]],
            // not https at all, relative, with a fragment or credentials, too long
            ["redirect_uris", ["ftp://example.com/cb"]],
            ["redirect_uris", ["javascript:alert(1)"]],
            ["redirect_uris", ["/callback"]],
            ["redirect_uris", ["https://example.com/cb#here"]],
            ["redirect_uris", ["https://user:pass@example.com/cb"]],
            ["redirect_uris", [`https://example.com/${"a".repeat(2048)}`]],
            ["redirect_uris", [7]],
            // flags beyond the settable intents, negative, and past 32 bits: 2^32 + 8192 reads as
            // 8192 to JavaScript's `&`, and PostgreSQL's integer column refused it (a 500)
            ["flags", 1],
            ["flags", -8192],
            ["flags", 2 ** 31],
            ["flags", 2 ** 32 + 8192],
            ["flags", 2 ** 52 + 8192]
          ] as const) {
            const refused = yield* answer(yield* send("PATCH", path, { [field]: value }, owner.access_token))
            expect([field, value, refused]).toMatchObject([
              field,
              value,
              { status: 400, body: { code: 50035, message: "Invalid Form Body", errors: { [field]: {} } } }
            ])
          }
          // loopback in every spelling the rule allows, with ports and queries kept byte for byte
          const loopback = ["http://localhost:3000/cb", "http://127.0.0.1:8080/cb?x=1", "http://[::1]/cb"]
          expect(
            yield* answer(yield* send("PATCH", path, { redirect_uris: loopback }, owner.access_token))
          ).toMatchObject({ status: 200, body: { redirect_uris: loopback } })
          expect(yield* answer(yield* send("GET", path, undefined, owner.access_token))).toMatchObject({
            status: 200,
            body: { name: "Strict", description: "", bot_public: true, bot_require_code_grant: false }
          })
        })
      )

      it.effect("the data export lists the owner's applications, never a token or secret", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const owner = yield* user("app_export")
          const app = yield* createApplication(owner.access_token, "Exported")
          const token = yield* resetBotToken(owner.access_token, app.id)
          expect((yield* post(`${API}/users/@me/export`, undefined, owner.access_token)).status).toBe(200)
          yield* testHost.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
          const ready = (yield* json(yield* send("GET", `${API}/users/@me/export`, undefined, owner.access_token))) as {
            url: string
          }
          const download = yield* testHost.fetch(ready.url)
          expect(download.status).toBe(200)
          const files = unzip(new Uint8Array(yield* Effect.promise(() => download.arrayBuffer())))
          expect(JSON.parse(files["applications.json"] ?? "null")).toEqual([
            {
              id: app.id,
              name: "Exported",
              description: "",
              bot_public: true,
              bot_require_code_grant: false,
              redirect_uris: [],
              created_at: expect.any(String)
            }
          ])
          expect(Object.values(files).join("\n")).not.toContain(token)
        })
      )

      it.effect("another user's application is unknown to them; its secret reset answers 403", () =>
        Effect.gen(function* () {
          const owner = yield* user("app_mine")
          const other = yield* user("app_other")
          const app = yield* createApplication(owner.access_token, "Private App")
          const path = `${API}/applications/${app.id}`
          expect(yield* answer(yield* send("GET", path, undefined, other.access_token))).toEqual(UNKNOWN_APPLICATION)
          expect(yield* answer(yield* send("PATCH", path, { name: "Stolen" }, other.access_token))).toEqual(
            UNKNOWN_APPLICATION
          )
          expect(yield* answer(yield* send("DELETE", path, undefined, other.access_token))).toEqual(UNKNOWN_APPLICATION)
          expect(yield* answer(yield* post(`${path}/bot/reset`, undefined, other.access_token))).toEqual(
            UNKNOWN_APPLICATION
          )
          expect(yield* answer(yield* post(`${path}/secret/reset`, undefined, other.access_token))).toEqual({
            status: 403,
            body: { code: 50001, message: "Missing Access" }
          })
          expect(
            yield* answer(
              yield* post(`${API}/applications/1311000000000000001/secret/reset`, undefined, other.access_token)
            )
          ).toEqual(UNKNOWN_APPLICATION)
          const listed = (yield* json(
            yield* send("GET", `${API}/applications`, undefined, other.access_token)
          )) as ReadonlyArray<unknown>
          expect(listed).toEqual([])
          // still the owner's, unchanged
          expect(yield* answer(yield* send("GET", path, undefined, owner.access_token))).toMatchObject({
            status: 200,
            body: { name: "Private App" }
          })
        })
      )

      it.effect("the client secret is shown once per reset and each reset makes a new one", () =>
        Effect.gen(function* () {
          const owner = yield* user("app_secret")
          const app = yield* createApplication(owner.access_token, "Secretive")
          const reset = yield* post(`${API}/applications/${app.id}/secret/reset`, undefined, owner.access_token)
          // shown this once: no cache may keep it
          expectNotKept(reset, 200)
          const first = yield* answer(reset)
          const second = yield* answer(
            yield* post(`${API}/applications/${app.id}/secret/reset`, undefined, owner.access_token)
          )
          expect(first.status).toBe(200)
          const a = (first.body as { client_secret: string }).client_secret
          const b = (second.body as { client_secret: string }).client_secret
          expect(a).toMatch(TOKEN)
          expect(b).toMatch(TOKEN)
          expect(a).not.toBe(b)
          expect(a).not.toMatch(/^(bot|bearer)/i)
        })
      )

      it.effect("past 25 applications per owner answers 400 30032, also when creations race", () =>
        Effect.gen(function* () {
          const owner = yield* user("app_many")
          for (let i = 0; i < 20; i++) yield* createApplication(owner.access_token, `App ${i}`)
          // six at once for the last five places: exactly five succeed
          const raced = yield* Effect.all(
            Array.from({ length: 6 }, (_, i) => post(`${API}/applications`, { name: `Race ${i}` }, owner.access_token)),
            { concurrency: "unbounded" }
          )
          expect(raced.filter((r) => r.status === 201)).toHaveLength(5)
          const refused = raced.filter((r) => r.status !== 201)
          expect(refused).toHaveLength(1)
          expect(yield* answer(refused[0] as Response)).toEqual({
            status: 400,
            body: { code: 30032, message: "Maximum number of applications reached (25)" }
          })
          const listed = (yield* json(
            yield* send("GET", `${API}/applications`, undefined, owner.access_token)
          )) as ReadonlyArray<unknown>
          expect(listed).toHaveLength(25)
          expect((yield* post(`${API}/applications`, { name: "One more" }, owner.access_token)).status).toBe(400)
          // another owner is not affected
          const other = yield* user("app_few")
          yield* createApplication(other.access_token, "Mine")
        })
      )
    })
  })

  describe("Applications: bot tokens", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("a bot acts with its token, reads its own application; a reset stops the old token at once", () =>
        Effect.gen(function* () {
          const owner = yield* user("bot_owner")
          const app = yield* createApplication(owner.access_token, "Token Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          expect(token).toMatch(TOKEN)
          expect(token).not.toMatch(/^(bot|bearer)/i)

          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, token))).toMatchObject({
            status: 200,
            body: { id: app.id, bot: true, username: "token_bot" }
          })
          for (const path of [`${API}/applications/@me`, `${API}/oauth2/applications/@me`]) {
            expect(yield* answer(yield* asBot("GET", path, token))).toMatchObject({
              status: 200,
              body: { id: app.id, name: "Token Bot", owner: { id: owner.user_id }, bot: { id: app.id, bot: true } }
            })
          }
          expect(yield* answer(yield* asBot("GET", `${API}/oauth2/@me`, token))).toMatchObject({
            status: 200,
            body: { application: { id: app.id }, scopes: ["bot"], user: { id: app.id, bot: true } }
          })
          const gateway = yield* answer(yield* asBot("GET", `${API}/gateway/bot`, token))
          expect(gateway).toEqual({
            status: 200,
            body: {
              url: TestHost.GATEWAY_URL,
              shards: 1,
              session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }
            }
          })

          // the token is a bot's: as a Bearer token it is unknown
          expect(yield* answer(yield* send("GET", `${API}/users/@me`, undefined, token))).toEqual(INVALID_TOKEN)

          const renewed = yield* resetBotToken(owner.access_token, app.id)
          expect(renewed).not.toBe(token)
          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, token))).toEqual(INVALID_TOKEN)
          expect((yield* asBot("GET", `${API}/users/@me`, renewed)).status).toBe(200)
          // a token nobody was given
          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, `vbt_${"A".repeat(43)}`))).toEqual(INVALID_TOKEN)
        })
      )

      it.effect("users get 20002 on the bots' routes; bots get 20001 on every users-only route", () =>
        Effect.gen(function* () {
          const owner = yield* user("policy_owner")
          const app = yield* createApplication(owner.access_token, "Policy Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          const guild = yield* createGuild(owner.access_token, "Policy Home")
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          for (const path of ["/applications/@me", "/oauth2/applications/@me", "/oauth2/@me", "/gateway/bot"]) {
            expect(yield* answer(yield* send("GET", `${API}${path}`, undefined, owner.access_token))).toEqual(ONLY_BOTS)
          }
          // The spec's users-only list, as far as the routes exist today (reports, push and group DMs do
          // not yet); each with a body the route accepts, so only the bot rule can refuse it.
          const usersOnly: ReadonlyArray<readonly [string, string, string, unknown?]> = [
            // sessions and two-factor authentication
            ["sessions", "POST", "/auth/logout"],
            ["sessions", "GET", "/auth/sessions"],
            ["sessions", "DELETE", "/auth/sessions"],
            ["2FA", "GET", "/auth/mfa"],
            ["2FA", "POST", "/auth/mfa/totp", { password: PASSWORD, secret: SECRET, code: "123456" }],
            ["2FA", "POST", "/auth/mfa/codes", { password: PASSWORD }],
            ["2FA", "DELETE", "/auth/mfa/totp", { code: "123456" }],
            // the account's own settings, which a bot has not
            ["account", "PATCH", "/users/@me", { bio: "x" }],
            ["account", "GET", "/users/@me/settings"],
            ["account", "PATCH", "/users/@me/settings", { status: "idle" }],
            ["account", "PATCH", "/users/@me/guild-order", { guilds: [] }],
            ["account", "POST", "/users/@me/phone", { password: PASSWORD, phone: "+79670000001" }],
            ["account", "PUT", "/users/@me/phone", { verification_id: "1311000000000000001", code: "123456" }],
            ["account", "POST", "/users/@me/email", { password: PASSWORD, email: "bot@example.com" }],
            ["account", "DELETE", "/users/@me/email", { password: PASSWORD }],
            ["account", "POST", "/users/@me/email/resend"],
            ["account", "POST", "/users/@me/delete", { password: PASSWORD }],
            ["account", "DELETE", "/users/@me/delete"],
            ["account", "GET", "/users/@me/export"],
            ["account", "POST", "/users/@me/export"],
            ["account", "GET", `/users/@me/guilds/${guild.id}/member`],
            // friends
            ["friends", "GET", "/users/@me/relationships"],
            // accepting invitations (a real one) and creating servers
            ["invitations", "POST", `/invites/${code}`, {}],
            ["servers", "POST", "/guilds", { name: "Bot Guild" }],
            // moderation
            ["moderation", "PUT", `/moderation/users/${owner.user_id}/block`, { reason: "spam" }],
            ["moderation", "DELETE", `/moderation/users/${owner.user_id}/block`],
            ["moderation", "PUT", `/moderation/users/${owner.user_id}/restriction`, { reason: "spam" }],
            ["moderation", "DELETE", `/moderation/users/${owner.user_id}/restriction`],
            // the developer-applications section
            ["applications", "POST", "/applications", { name: "Bot's own" }],
            ["applications", "GET", "/applications"],
            ["applications", "GET", `/applications/${app.id}`],
            ["applications", "PATCH", `/applications/${app.id}`, { name: "Renamed" }],
            ["applications", "DELETE", `/applications/${app.id}`],
            ["applications", "POST", `/applications/${app.id}/bot/reset`],
            ["applications", "POST", `/applications/${app.id}/secret/reset`]
          ]
          for (const [section, method, path, body] of usersOnly) {
            expect([section, method, path, yield* answer(yield* asBot(method, `${API}${path}`, token, body))]).toEqual([
              section,
              method,
              path,
              BOTS_CANNOT
            ])
          }
          // nothing happened: the bot joined no guild, made none, its token and application stand
          const guilds = (yield* json(yield* asBot("GET", `${API}/users/@me/guilds`, token))) as ReadonlyArray<unknown>
          expect(guilds).toEqual([])
          expect((yield* asBot("GET", `${API}/users/@me`, token)).status).toBe(200)
          expect(
            yield* answer(yield* send("GET", `${API}/applications/${app.id}`, undefined, owner.access_token))
          ).toMatchObject({ status: 200, body: { name: "Policy Bot" } })
        })
      )

      it.effect("a bot reads itself, its guilds and their channels, members and roles; it may leave", () =>
        Effect.gen(function* () {
          const _testHost = yield* TestHost.TestHost
          const owner = yield* user("reads_owner")
          const app = yield* createApplication(owner.access_token, "Reader Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          const guild = yield* createGuild(owner.access_token, "Readable")
          const elsewhere = yield* createGuild(owner.access_token, "Not the bot's")
          yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: app.name })
          const role = guild.roles[0]?.id ?? ""
          const channel = guild.system_channel_id
          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, token))).toMatchObject({
            status: 200,
            body: { id: app.id, bot: true }
          })
          const reads: ReadonlyArray<readonly [string, unknown]> = [
            ["/users/@me/guilds", [{ id: guild.id }]],
            [`/users/${owner.user_id}`, { id: owner.user_id }],
            [`/guilds/${guild.id}`, { id: guild.id, name: "Readable" }],
            [`/guilds/${guild.id}/channels`, expect.arrayContaining([expect.objectContaining({ id: channel })])],
            [`/channels/${channel}`, { id: channel, guild_id: guild.id }],
            [`/guilds/${guild.id}/members/${app.id}`, { user: { id: app.id, bot: true } }],
            [`/guilds/${guild.id}/members/${owner.user_id}`, { user: { id: owner.user_id } }],
            [`/guilds/${guild.id}/members?limit=10`, expect.arrayContaining([expect.objectContaining({})])],
            [`/guilds/${guild.id}/roles`, expect.arrayContaining([expect.objectContaining({ id: role })])],
            [`/guilds/${guild.id}/roles/${role}`, { id: role }]
          ]
          for (const [path, shape] of reads) {
            expect([path, yield* answer(yield* asBot("GET", `${API}${path}`, token))]).toMatchObject([
              path,
              { status: 200, body: shape }
            ])
          }
          // a guild it is not in stays closed to it
          expect((yield* asBot("GET", `${API}/guilds/${elsewhere.id}`, token)).status).toBeGreaterThanOrEqual(403)
          expect((yield* asBot("GET", `${API}/guilds/${elsewhere.id}/channels`, token)).status).toBeGreaterThanOrEqual(
            403
          )
          // leaving is allowed to bots (the platform's DELETE /users/@me/guilds/{id})
          expect((yield* asBot("DELETE", `${API}/users/@me/guilds/${guild.id}`, token)).status).toBe(204)
          expect(yield* json(yield* asBot("GET", `${API}/users/@me/guilds`, token))).toEqual([])
        })
      )

      it.effect("deleting an application revokes its bot's token and takes the bot out of its guilds", () =>
        Effect.gen(function* () {
          const owner = yield* user("del_owner")
          const app = yield* createApplication(owner.access_token, "Leaving Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          const guild = yield* createGuild(owner.access_token, "Bot Home")
          const _testHost = yield* TestHost.TestHost
          yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: app.name })
          const member = `${API}/guilds/${guild.id}/members/${app.id}`
          expect((yield* send("GET", member, undefined, owner.access_token)).status).toBe(200)
          const guilds = (yield* json(yield* asBot("GET", `${API}/users/@me/guilds`, token))) as ReadonlyArray<{
            id: string
          }>
          expect(guilds.map((g) => g.id)).toEqual([guild.id])

          const deleted = yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token)
          expect(deleted.status).toBe(204)
          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, token))).toEqual(INVALID_TOKEN)
          expect((yield* send("GET", member, undefined, owner.access_token)).status).toBe(404)
          expect(
            yield* answer(yield* send("GET", `${API}/applications/${app.id}`, undefined, owner.access_token))
          ).toEqual(UNKNOWN_APPLICATION)
          expect(
            yield* answer(yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token))
          ).toEqual(UNKNOWN_APPLICATION)
          // the bot's name is free again: a new application may take it
          const again = yield* createApplication(owner.access_token, "Leaving Bot")
          expect(again.bot?.username).toBe("leaving_bot")
        })
      )
    })
  })

  describe("Applications: a bot never owns a guild, and its managed role leaves with it", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      const ownerOf = (guildId: string, token: string) =>
        Effect.map(
          Effect.flatMap(send("GET", `${API}/guilds/${guildId}`, undefined, token), json),
          (body) => (body as { owner_id: string }).owner_id
        )
      const botRoles = (guildId: string, token: string) =>
        Effect.map(Effect.flatMap(send("GET", `${API}/guilds/${guildId}/roles`, undefined, token), json), (body) =>
          (body as ReadonlyArray<{ id: string; managed: boolean; tags?: { bot_id?: string } }>).filter(
            (role) => role.managed
          )
        )
      /** An account with an application whose bot is in the account's own guild, as an administrator. */
      const botInOwnGuild = (prefix: string, appName: string, guildName: string) =>
        Effect.gen(function* () {
          const owner = yield* user(prefix)
          const app = yield* createApplication(owner.access_token, appName)
          const guild = yield* createGuild(owner.access_token, guildName)
          yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: app.name }, 8n)
          return { owner, app, guild }
        })

      it.effect(
        "ownership cannot go to a bot (400 50035 on owner_id); deleting its application leaves the guild managed",
        () =>
          Effect.gen(function* () {
            const { owner, app, guild } = yield* botInOwnGuild("own_keeper", "Would Own", "Kept Guild")
            const path = `${API}/guilds/${guild.id}`
            expect(yield* answer(yield* send("PATCH", path, { owner_id: app.id }, owner.access_token))).toEqual(
              ownershipRefused("Ownership cannot be transferred to a bot user.")
            )
            expect(yield* ownerOf(guild.id, owner.access_token)).toBe(owner.user_id)
            expect((yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token)).status).toBe(
              204
            )
            expect((yield* send("GET", `${path}/members/${app.id}`, undefined, owner.access_token)).status).toBe(404)
            expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])
            expect((yield* send("PATCH", path, { name: "Still Mine" }, owner.access_token)).status).toBe(200)
          })
      )

      it.effect(
        "a guild a bot owns from before (legacy data) goes back to the application's owner on its deletion",
        () =>
          Effect.gen(function* () {
            const { owner, app, guild } = yield* botInOwnGuild("legacy_own", "Legacy Owner", "Legacy Guild")
            const testHost = yield* TestHost.TestHost
            yield* testHost.run(
              Effect.flatMap(Effect.service(GuildsRepo.GuildsRepo), (repo) =>
                repo.transfer(
                  Snowflake.Snowflake.make(guild.id),
                  Snowflake.Snowflake.make(owner.user_id),
                  Snowflake.Snowflake.make(app.id)
                )
              )
            )
            expect(yield* ownerOf(guild.id, owner.access_token)).toBe(app.id)
            expect((yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token)).status).toBe(
              204
            )
            expect(yield* ownerOf(guild.id, owner.access_token)).toBe(owner.user_id)
            const members = (yield* json(
              yield* send("GET", `${API}/guilds/${guild.id}/members?limit=10`, undefined, owner.access_token)
            )) as ReadonlyArray<{ user: { id: string } }>
            expect(members.map((member) => member.user.id)).toEqual([owner.user_id])
            expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])
            expect((yield* send("DELETE", `${API}/guilds/${guild.id}`, undefined, owner.access_token)).status).toBe(204)
          })
      )

      it.effect("kick, ban, leaving and the application's deletion each take the bot's managed role away", () =>
        Effect.gen(function* () {
          const owner = yield* user("role_owner")
          const app = yield* createApplication(owner.access_token, "Role Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          const guild = yield* createGuild(owner.access_token, "Role Guild")
          const bot = { id: app.id, name: app.name }
          const member = `${API}/guilds/${guild.id}/members/${app.id}`
          const addAndCheck = Effect.gen(function* () {
            yield* addBotToGuild(owner.user_id, guild.id, bot, 8n)
            const roles = yield* botRoles(guild.id, owner.access_token)
            // one fresh role each time, never a second beside a leftover
            expect(roles.map((role) => role.tags?.bot_id)).toEqual([app.id])
          })

          yield* addAndCheck
          expect((yield* send("DELETE", member, undefined, owner.access_token)).status).toBe(204)
          expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])

          yield* addAndCheck
          const ban = `${API}/guilds/${guild.id}/bans/${app.id}`
          expect((yield* send("PUT", ban, {}, owner.access_token)).status).toBe(204)
          expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])
          expect((yield* send("DELETE", ban, undefined, owner.access_token)).status).toBe(204)

          yield* addAndCheck
          expect((yield* asBot("DELETE", `${API}/users/@me/guilds/${guild.id}`, token)).status).toBe(204)
          expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])

          yield* addAndCheck
          expect((yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token)).status).toBe(
            204
          )
          expect(yield* botRoles(guild.id, owner.access_token)).toEqual([])
          expect((yield* send("GET", member, undefined, owner.access_token)).status).toBe(404)
        })
      )
    })
  })

  // The deletion is made due at once through the privacy domain's store (the request as the route
  // made it, its due time moved to now) and carried out as the worker would: no 14-day clock jump,
  // which over PostgreSQL would wake the workers' timers while each of their steps waits on real I/O.
  describe("Applications: the owner's account deletion", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("a deleted account's applications go with it: bot tokens revoked, bots out of their guilds", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const owner = yield* user("gone_dev")
          const app = yield* createApplication(owner.access_token, "Orphan Bot")
          const token = yield* resetBotToken(owner.access_token, app.id)
          // the bot in someone else's guild, which outlives the owner
          const host2 = yield* user("gone_host")
          const guild = yield* createGuild(host2.access_token, "Stays")
          yield* addBotToGuild(host2.user_id, guild.id, { id: app.id, name: app.name })
          expect((yield* post(`${API}/users/@me/delete`, { password: PASSWORD }, owner.access_token)).status).toBe(200)
          const ownerId = Snowflake.Snowflake.make(owner.user_id)
          const carriedOut = yield* testHost.run(
            Effect.gen(function* () {
              const deletions = yield* DeletionsRepo.DeletionsRepo
              // not due yet: nothing happens, the bot still works
              expect(yield* Effect.flatMap(Effect.service(AccountDeletion.AccountDeletion), (d) => d.carryOutDue)).toBe(
                0
              )
              const requested = yield* deletions.cancel(ownerId)
              expect(Option.map(requested, (d) => d.state)).toEqual(Option.some("cancelled"))
              const now = yield* DateTime.now
              yield* deletions.request({ userId: ownerId, state: "pending", requestedAt: now, deleteAt: now })
              return yield* Effect.flatMap(Effect.service(AccountDeletion.AccountDeletion), (d) => d.carryOutDue)
            })
          )
          expect(carriedOut).toBe(1)
          expect(yield* answer(yield* asBot("GET", `${API}/users/@me`, token))).toEqual(INVALID_TOKEN)
          expect(yield* answer(yield* send("GET", `${API}/users/@me`, undefined, owner.access_token))).toEqual(
            INVALID_TOKEN
          )
          // the guild's owner no longer finds the bot among the members
          const member = `${API}/guilds/${guild.id}/members/${app.id}`
          expect(yield* answer(yield* send("GET", member, undefined, host2.access_token))).toMatchObject({
            status: 404,
            body: { code: 10007 }
          })
          const members = (yield* json(
            yield* send("GET", `${API}/guilds/${guild.id}/members?limit=100`, undefined, host2.access_token)
          )) as ReadonlyArray<{ user: { id: string } }>
          expect(members.map((m) => m.user.id)).toEqual([host2.user_id])
        })
      )
    })
  })

  describe("Applications: SERVICE_APPLICATIONS_REQUIRE_MFA", () => {
    const env = ConfigProvider.layer(ConfigProvider.fromEnvRecord({ SERVICE_APPLICATIONS_REQUIRE_MFA: "true" }))
    layer(host().pipe(Layer.provide(env)), { timeout: "60 seconds" })((it) => {
      it.effect("creating needs 2FA on the account: 403 60003 without, 201 with", () =>
        Effect.gen(function* () {
          const owner = yield* user("mfa_dev")
          expect(yield* answer(yield* post(`${API}/applications`, { name: "Guarded" }, owner.access_token))).toEqual({
            status: 403,
            body: { code: 60003, message: "Two factor is required for this operation" }
          })
          const testHost = yield* TestHost.TestHost
          const now = yield* testHost.run(Clock.currentTimeMillis)
          const enabled = yield* post(
            `${API}/auth/mfa/totp`,
            { password: PASSWORD, secret: SECRET, code: OtplibTotpCodes.codeAt(SECRET, now) },
            owner.access_token
          )
          expect(enabled.status).toBe(200)
          expect(Totp.PERIOD_SECONDS).toBe(30)
          yield* createApplication(owner.access_token, "Guarded")
        })
      )
    })
  })
}
