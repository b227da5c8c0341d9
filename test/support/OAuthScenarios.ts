/**
 * The OAuth 2.0 provider through HTTP, on the repositories the caller gives (memory by default;
 * PostgreSQL in adapters/postgres/test/OAuthRoutes.test.ts, where concurrent redemptions of one
 * code and refreshes really race). Each line of the OAuth section of security.md is a test here.
 */
import { createHash } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { TestClock } from "effect/testing"
import { json, type Registered, register, send } from "./Accounts.ts"
import { asBot, createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { createGuild } from "./Guilds.ts"

const API = "/api/v10"
const REDIRECT = "https://app.example/cb"
const LOCAL = "http://localhost:8123/callback"
const WEB_URL = TestHost.WEB_URL

interface Answer {
  readonly status: number
  readonly body: unknown
  readonly headers: Headers
}

const answer = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (text): Answer => ({
      status: response.status,
      body: text === "" ? undefined : (JSON.parse(text) as unknown),
      headers: response.headers
    })
  )

/** base64url(SHA-256(verifier)): the S256 challenge. */
export const challengeOf = (verifier: string) => createHash("sha256").update(verifier).digest("base64url")
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk-and-some-more"

/** A form POST to a token route; `basic` adds HTTP Basic credentials (already form-encoded by the caller). */
export const tokenRequest = (
  path: "/oauth2/token" | "/oauth2/token/revoke",
  fields: Record<string, string>,
  options: { readonly basic?: readonly [string, string]; readonly contentType?: string; readonly raw?: string } = {}
) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    Effect.flatMap(
      host.fetch(`${API}${path}`, {
        method: "POST",
        headers: {
          "content-type": options.contentType ?? "application/x-www-form-urlencoded",
          ...(options.basic === undefined
            ? {}
            : { authorization: `Basic ${Buffer.from(`${options.basic[0]}:${options.basic[1]}`).toString("base64")}` })
        },
        body: options.raw ?? new URLSearchParams(fields).toString()
      }),
      answer
    )
  )

const authorizeQuery = (params: Record<string, string | undefined>) =>
  new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined)
  ).toString()

export const consent = (token: string, params: Record<string, string | undefined>, body?: unknown) =>
  Effect.flatMap(
    send(
      body === undefined ? "GET" : "POST",
      `${API}/oauth2/authorize?${authorizeQuery({ response_type: "code", ...params })}`,
      body,
      token
    ),
    answer
  )

/** An application with the redirect URIs registered, and its client secret. */
export const client = (owner: Registered, name: string, redirectUris: ReadonlyArray<string> = [REDIRECT, LOCAL]) =>
  Effect.gen(function* () {
    const app = yield* createApplication(owner.access_token, name)
    const patched = yield* send(
      "PATCH",
      `${API}/applications/${app.id}`,
      { redirect_uris: redirectUris },
      owner.access_token
    )
    expect(patched.status).toBe(200)
    const reset = yield* send("POST", `${API}/applications/${app.id}/secret/reset`, undefined, owner.access_token)
    const secret = ((yield* json(reset)) as { client_secret: string }).client_secret
    return { id: app.id, secret }
  })

/** Approves `identify` for the client and answers the code from the redirect. */
export const approve = (
  user: Registered,
  clientId: string,
  extra: Record<string, string | undefined> = {},
  redirectUri = REDIRECT
) =>
  Effect.gen(function* () {
    const decided = yield* consent(
      user.access_token,
      { client_id: clientId, scope: "identify", redirect_uri: redirectUri, state: "s t/ä", ...extra },
      { authorize: true }
    )
    expect(decided.status).toBe(200)
    const location = new URL((decided.body as { location: string }).location)
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri.split("?")[0])
    expect(location.searchParams.get("state")).toBe(extra.state ?? "s t/ä")
    return location.searchParams.get("code") ?? ""
  })

interface Tokens {
  readonly access_token: string
  readonly refresh_token: string
  readonly token_type: string
  readonly expires_in: number
  readonly scope: string
}

const tokensOf = (got: Answer) => {
  expect(got.status, JSON.stringify(got.body)).toBe(200)
  return got.body as Tokens
}

const me = (accessToken: string) => Effect.flatMap(send("GET", `${API}/users/@me`, undefined, accessToken), answer)

const INVALID_TOKEN = { code: 50014, message: "Invalid authentication token" }
const rfc = (error: string) => ({ error, error_description: expect.any(String) })

export const oauthScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () => TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() })

  let phone = 79673000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)

  describe("OAuth consent: GET and POST /oauth2/authorize", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("shows the application, the user and the scopes; approving redirects with a code and the state", () =>
        Effect.gen(function* () {
          const owner = yield* user("oa_owner")
          const someone = yield* user("oa_user")
          const app = yield* client(owner, "Sign In App")
          const shown = yield* consent(someone.access_token, {
            client_id: app.id,
            scope: "identify",
            redirect_uri: REDIRECT,
            state: "xyz",
            prompt: "consent"
          })
          expect(shown.status).toBe(200)
          expect(shown.body).toEqual({
            application: {
              id: app.id,
              name: "Sign In App",
              icon: null,
              description: "",
              bot_public: true,
              bot_require_code_grant: false
            },
            user: expect.objectContaining({ id: someone.user_id, discriminator: "0", avatar: null, bot: false }),
            authorized: false,
            scopes: ["identify"],
            redirect_uri: REDIRECT
          })
          const denied = yield* consent(
            someone.access_token,
            { client_id: app.id, scope: "identify", redirect_uri: REDIRECT, state: "a&b=c" },
            { authorize: false }
          )
          expect(denied).toMatchObject({
            status: 200,
            body: { location: `${REDIRECT}?error=access_denied&state=a%26b%3Dc` }
          })
          const code = yield* approve(someone, app.id)
          expect(code).toMatch(/^voc_[A-Za-z0-9_-]{43}$/)
          // once granted, the page says so
          yield* tokenRequest("/oauth2/token", {
            grant_type: "authorization_code",
            code,
            redirect_uri: REDIRECT,
            client_id: app.id,
            client_secret: app.secret
          })
          const again = yield* consent(someone.access_token, {
            client_id: app.id,
            scope: "identify",
            redirect_uri: REDIRECT
          })
          expect(again.body).toMatchObject({ authorized: true })
        })
      )

      it.effect(
        "refuses, never redirecting: unknown or malformed client, a redirect URI not registered byte for byte, bad parameters",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("oa_refuse")
            const app = yield* client(owner, "Strict App")
            const token = owner.access_token
            const base = { client_id: app.id, scope: "identify", redirect_uri: REDIRECT }
            expect(yield* consent(token, { ...base, client_id: "1311000000000000999" })).toMatchObject({
              status: 404,
              body: { code: 10002 }
            })
            const malformed = yield* consent(token, { ...base, client_id: "abc" })
            expect(malformed.status).toBe(400)
            expect(malformed.body).toMatchObject({ code: 50035, errors: { client_id: expect.anything() } })
            for (const redirect of [
              "https://app.example/cb/",
              "https://app.example/CB",
              "https://app.example:443/cb",
              "https://app.example/cb?x=1",
              "http://app.example/cb",
              "http://localhost:8124/callback",
              "http://localhost/callback",
              "https://evil.example/cb"
            ]) {
              for (const body of [undefined, { authorize: true }]) {
                const refused = yield* consent(token, { ...base, redirect_uri: redirect }, body)
                expect(refused, redirect).toMatchObject({
                  status: 400,
                  body: {
                    code: 50035,
                    errors: {
                      redirect_uri: {
                        _errors: [{ code: "INVALID_OAUTH_REDIRECT", message: "Invalid OAuth2 redirect_uri" }]
                      }
                    }
                  }
                })
              }
            }
            // identify needs a redirect URI
            expect((yield* consent(token, { client_id: app.id, scope: "identify" })).body).toMatchObject({
              errors: { redirect_uri: expect.anything() }
            })
            // the registered http one on localhost, with its port, is fine
            expect((yield* consent(token, { ...base, redirect_uri: LOCAL })).status).toBe(200)
            const fields: ReadonlyArray<readonly [Record<string, string>, string]> = [
              [{ response_type: "token" }, "response_type"],
              [{ scope: "identify email" }, "scope"],
              [{ scope: "" }, "scope"],
              [{ code_challenge: challengeOf(VERIFIER), code_challenge_method: "plain" }, "code_challenge_method"],
              [{ code_challenge: challengeOf(VERIFIER) }, "code_challenge_method"],
              [{ code_challenge_method: "S256" }, "code_challenge"],
              [{ code_challenge: "short", code_challenge_method: "S256" }, "code_challenge"]
            ]
            for (const [extra, field] of fields) {
              const refused = yield* consent(token, { ...base, ...extra })
              expect(refused.status, field).toBe(400)
              expect(refused.body, field).toMatchObject({ code: 50035, errors: { [field]: expect.anything() } })
            }
          })
      )

      it.effect(
        "a bot cannot consent (20001); an OAuth token is no session here (401 50014); no token is 401 40001",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("oa_callers")
            const app = yield* client(owner, "Caller App")
            const botToken = yield* resetBotToken(owner.access_token, app.id)
            const query = `client_id=${app.id}&response_type=code&scope=identify&redirect_uri=${encodeURIComponent(REDIRECT)}`
            const byBot = yield* Effect.flatMap(asBot("GET", `${API}/oauth2/authorize?${query}`, botToken), answer)
            expect(byBot).toMatchObject({ status: 403, body: { code: 20001 } })
            const anonymous = yield* Effect.flatMap(send("GET", `${API}/oauth2/authorize?${query}`), answer)
            expect(anonymous).toMatchObject({ status: 401, body: { code: 40001 } })
            const code = yield* approve(owner, app.id)
            const tokens = tokensOf(
              yield* tokenRequest("/oauth2/token", {
                grant_type: "authorization_code",
                code,
                redirect_uri: REDIRECT,
                client_id: app.id,
                client_secret: app.secret
              })
            )
            expect(
              yield* consent(tokens.access_token, { client_id: app.id, scope: "identify", redirect_uri: REDIRECT })
            ).toMatchObject({
              status: 401,
              body: INVALID_TOKEN
            })
          })
      )

      it.effect(
        "scope bot: the guilds the user manages; approving adds the bot with a managed role of the permissions the user holds",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("oa_botowner")
            const admin = yield* user("oa_admin")
            const app = yield* client(owner, "Guild Helper")
            const guild = yield* createGuild(admin.access_token, "Bot Home")
            const other = yield* createGuild(owner.access_token, "Not Theirs")
            const shown = yield* consent(admin.access_token, { client_id: app.id, scope: "bot", permissions: "2048" })
            expect(shown.status).toBe(200)
            expect(shown.body).toMatchObject({
              scopes: ["bot"],
              redirect_uri: null,
              bot: { id: app.id, bot: true },
              guilds: [{ id: guild.id, name: "Bot Home", icon: null, permissions: expect.any(String) }]
            })
            expect((shown.body as { guilds: ReadonlyArray<{ id: string }> }).guilds.map((g) => g.id)).not.toContain(
              other.id
            )
            // no guild: 50035 on guild_id; a guild they are not in: 403, as the guild routes answer
            expect(
              yield* consent(admin.access_token, { client_id: app.id, scope: "bot" }, { authorize: true })
            ).toMatchObject({ status: 400, body: { code: 50035, errors: { guild_id: expect.anything() } } })
            expect(
              (yield* consent(
                admin.access_token,
                { client_id: app.id, scope: "bot" },
                { authorize: true, guild_id: other.id }
              )).status
            ).toBe(403)
            // Send Messages (2048) and Administrator (8): the admin owns the guild, so both are theirs
            const added = yield* consent(
              admin.access_token,
              { client_id: app.id, scope: "bot", permissions: "2056" },
              { authorize: true, guild_id: guild.id }
            )
            expect(added).toMatchObject({ status: 200, body: { location: `${WEB_URL}/oauth2/authorized` } })
            const member = yield* Effect.flatMap(
              send("GET", `${API}/guilds/${guild.id}/members/${app.id}`, undefined, admin.access_token),
              answer
            )
            expect(member.status).toBe(200)
            const roles = (yield* Effect.flatMap(
              send("GET", `${API}/guilds/${guild.id}/roles`, undefined, admin.access_token),
              answer
            )).body as ReadonlyArray<{ id: string; managed: boolean; permissions: string }>
            const managed = roles.find((role) => role.managed)
            expect(managed?.permissions).toBe("2056")
            expect((member.body as { roles: ReadonlyArray<string> }).roles).toEqual([managed?.id])
          })
      )

      it.effect("scope bot by a member without Manage Guild is 403 50013; a private bot only its owner adds", () =>
        Effect.gen(function* () {
          const owner = yield* user("oa_private")
          const stranger = yield* user("oa_stranger")
          const app = yield* client(owner, "Private Helper")
          const guild = yield* createGuild(stranger.access_token, "Stranger Home")
          expect(
            (yield* send("PATCH", `${API}/applications/${app.id}`, { bot_public: false }, owner.access_token)).status
          ).toBe(200)
          expect(
            yield* consent(
              stranger.access_token,
              { client_id: app.id, scope: "bot" },
              { authorize: true, guild_id: guild.id }
            )
          ).toMatchObject({ status: 403, body: { code: 50013 } })
          const member = yield* user("oa_member")
          const theirs = yield* createGuild(owner.access_token, "Owner Home")
          const invite = yield* Effect.flatMap(
            send("POST", `${API}/channels/${theirs.system_channel_id}/invites`, {}, owner.access_token),
            answer
          )
          expect(
            (yield* send("POST", `${API}/invites/${(invite.body as { code: string }).code}`, {}, member.access_token))
              .status
          ).toBe(200)
          expect(
            (yield* send("PATCH", `${API}/applications/${app.id}`, { bot_public: true }, owner.access_token)).status
          ).toBe(200)
          expect(
            yield* consent(
              member.access_token,
              { client_id: app.id, scope: "bot" },
              { authorize: true, guild_id: theirs.id }
            )
          ).toMatchObject({ status: 403, body: { code: 50013 } })
        })
      )
    })
  })

  return { user, host }
}

export type { Answer, Tokens }
export { API, answer, INVALID_TOKEN, LOCAL, me, REDIRECT, rfc, tokensOf, VERIFIER, WEB_URL }

void TestClock
