/**
 * The OAuth 2.0 provider through HTTP, on the repositories the caller gives (memory by default;
 * PostgreSQL in adapters/postgres/test/OAuthRoutes.test.ts, where concurrent redemptions of one
 * code and refreshes really race). Each line of the OAuth section of security.md is a test here.
 */
import { createHash } from "node:crypto"
import { describe, expect, layer } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { AccountDeletion, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect, type Layer } from "effect"
import { expectNotKept, json, PASSWORD, type Registered, register, send } from "./Accounts.ts"
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

const STAFF_PHONE = "+79673999999"
const INVALID_TOKEN = { code: 50014, message: "Invalid authentication token" }
const rfc = (error: string) => ({ error, error_description: expect.any(String) })

export const oauthScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () =>
    TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.(), staff: { phones: [STAFF_PHONE] } })

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
          const approved = yield* consent(
            someone.access_token,
            { client_id: app.id, scope: "identify", redirect_uri: REDIRECT },
            { authorize: true }
          )
          // it carries the code: no cache may keep it, as none may keep the token endpoint's answers
          expectNotKept(approved, 200)
          const code = new URL((approved.body as { location: string }).location).searchParams.get("code") ?? ""
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
            // a code needs response_type=code (only a bot invitation may leave it out)
            expect(yield* consent(token, { ...base, response_type: undefined })).toMatchObject({
              status: 400,
              body: { code: 50035, errors: { response_type: expect.anything() } }
            })
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
            // Send Messages (2048) and Administrator (8): the admin owns the guild, so both are theirs.
            // The link as bot libraries generate it: no response_type for a bot invitation.
            const added = yield* consent(
              admin.access_token,
              { client_id: app.id, scope: "bot", permissions: "2056", response_type: undefined },
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

      it.effect(
        "bot_require_code_grant: adding the bot needs a redirect URI and ends with a code; a bot-only token opens nothing",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("oa_codegrant")
            const app = yield* client(owner, "Code Grant Bot")
            const guild = yield* createGuild(owner.access_token, "Code Grant Home")
            expect(
              (yield* send(
                "PATCH",
                `${API}/applications/${app.id}`,
                { bot_require_code_grant: true },
                owner.access_token
              )).status
            ).toBe(200)
            expect(yield* consent(owner.access_token, { client_id: app.id, scope: "bot" })).toMatchObject({
              status: 400,
              body: { code: 50035, errors: { redirect_uri: expect.anything() } }
            })
            const decided = yield* consent(
              owner.access_token,
              { client_id: app.id, scope: "bot", redirect_uri: REDIRECT, state: "g" },
              { authorize: true, guild_id: guild.id }
            )
            expect(decided.status).toBe(200)
            const location = new URL((decided.body as { location: string }).location)
            expect(location.searchParams.get("state")).toBe("g")
            const code = location.searchParams.get("code") ?? ""
            expect(code).toMatch(/^voc_/)
            expect(
              (yield* send("GET", `${API}/guilds/${guild.id}/members/${app.id}`, undefined, owner.access_token)).status
            ).toBe(200)
            const tokens = tokensOf(
              yield* tokenRequest("/oauth2/token", {
                grant_type: "authorization_code",
                code,
                redirect_uri: REDIRECT,
                client_id: app.id,
                client_secret: app.secret
              })
            )
            expect(tokens.scope).toBe("bot")
            // without identify, not even GET /users/@me
            expect(yield* me(tokens.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
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
          // refused as the page opens, before a server and permissions are chosen; its owner may
          const query = authorizeQuery({ client_id: app.id, scope: "bot" })
          expect(
            yield* Effect.flatMap(
              send("GET", `${API}/oauth2/authorize?${query}`, undefined, stranger.access_token),
              answer
            )
          ).toMatchObject({ status: 403, body: { code: 50013 } })
          expect((yield* send("GET", `${API}/oauth2/authorize?${query}`, undefined, owner.access_token)).status).toBe(
            200
          )
          // `identify` alone asks nothing of the bot: anyone may grant it
          expect(
            (yield* send(
              "GET",
              `${API}/oauth2/authorize?${authorizeQuery({ client_id: app.id, scope: "identify", response_type: "code", redirect_uri: REDIRECT })}`,
              undefined,
              stranger.access_token
            )).status
          ).toBe(200)
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

  describe("OAuth token endpoint: POST /oauth2/token and /oauth2/token/revoke", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      /** A confidential client's code exchanged with its secret in the body. */
      const exchange = (app: { id: string; secret: string }, code: string, extra: Record<string, string> = {}) =>
        tokenRequest("/oauth2/token", {
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT,
          client_id: app.id,
          client_secret: app.secret,
          ...extra
        })

      it.effect("a confidential client: opaque tokens, no-store, the token works on GET /users/@me only", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_owner")
          const someone = yield* user("ot_someone")
          const app = yield* client(owner, "Token App")
          const own = yield* createGuild(someone.access_token, "Private Place")
          const got = yield* exchange(app, yield* approve(someone, app.id))
          const tokens = tokensOf(got)
          expect(tokens).toEqual({
            access_token: expect.stringMatching(/^voa_[A-Za-z0-9_-]{43}$/),
            refresh_token: expect.stringMatching(/^vor_[A-Za-z0-9_-]{43}$/),
            token_type: "Bearer",
            expires_in: 604800,
            scope: "identify"
          })
          expect(got.headers.get("cache-control")).toBe("no-store")
          expect(got.headers.get("pragma")).toBe("no-cache")
          for (const token of [tokens.access_token, tokens.refresh_token]) expect(token).not.toMatch(/^(bot|bearer)/i)
          const mine = yield* me(tokens.access_token)
          expect(mine.status).toBe(200)
          // who the user is, not how to reach them nor where they are: `identify` does not list the
          // user's servers (the platform's `guilds` scope does, which is not offered)
          expect(mine.body).toMatchObject({
            id: someone.user_id,
            bot: false,
            email: null,
            phone: null,
            guild_order: []
          })
          expect((yield* me(someone.access_token)).body).toMatchObject({ guild_order: [own.id] })
          // every other route answers as for an invalid token, whatever the method
          for (const [method, path, body] of [
            ["GET", `${API}/users/@me/guilds`, undefined],
            ["PATCH", `${API}/users/@me`, { bio: "owned" }],
            ["GET", `${API}/users/@me/settings`, undefined],
            ["GET", `${API}/auth/sessions`, undefined],
            ["POST", `${API}/guilds`, { name: "By OAuth" }],
            ["GET", `${API}/applications`, undefined],
            ["GET", `${API}/oauth2/@me`, undefined]
          ] as const) {
            expect(yield* Effect.flatMap(send(method, path, body, tokens.access_token), answer), path).toMatchObject({
              status: 401,
              body: INVALID_TOKEN
            })
          }
          // the refresh token is no access token anywhere
          expect(yield* me(tokens.refresh_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          // a week later the access token has expired (40001): the client refreshes. On memory only:
          // a week of test clock runs every node worker's rounds, minutes of work on PostgreSQL
          // (where the contract suite holds the expiry: OAuthRepoContract).
          if (repositories !== undefined) return
          const testHost = yield* TestHost.TestHost
          yield* testHost.adjustClock("7 days")
          expect(yield* me(tokens.access_token)).toMatchObject({ status: 401, body: { code: 40001 } })
          const refreshed = tokensOf(
            yield* tokenRequest("/oauth2/token", {
              grant_type: "refresh_token",
              refresh_token: tokens.refresh_token,
              client_id: app.id,
              client_secret: app.secret
            })
          )
          expect((yield* me(refreshed.access_token)).status).toBe(200)
        })
      )

      it.effect(
        "HTTP Basic: URL-decoded credentials, client_id from Basic alone, never both ways; failures 401 invalid_client",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("ot_basic")
            const app = yield* client(owner, "Basic App")
            const encoded = encodeURIComponent(app.secret)
            const basic = (
              code: string,
              extra: Record<string, string> = {},
              credentials: readonly [string, string] = [app.id, encoded]
            ) =>
              tokenRequest(
                "/oauth2/token",
                { grant_type: "authorization_code", code, redirect_uri: REDIRECT, ...extra },
                { basic: credentials }
              )
            tokensOf(yield* basic(yield* approve(owner, app.id)))
            // the client_id may be repeated in the body when it is the same
            tokensOf(yield* basic(yield* approve(owner, app.id), { client_id: app.id }))
            // a secret both ways, or two different ids: a malformed request, and the code is not spent
            const code = yield* approve(owner, app.id)
            expect(yield* basic(code, { client_secret: app.secret })).toMatchObject({
              status: 400,
              body: rfc("invalid_request")
            })
            expect(yield* basic(code, { client_id: "1311000000000000999" })).toMatchObject({
              status: 400,
              body: rfc("invalid_request")
            })
            const refused = yield* basic(code, {}, [app.id, `${encoded}x`])
            expect(refused).toMatchObject({ status: 401, body: rfc("invalid_client") })
            expect(refused.headers.get("www-authenticate")).toMatch(/^Basic /)
            expect(refused.headers.get("cache-control")).toBe("no-store")
            expect(yield* basic(code, {}, ["1311000000000000999", encoded])).toMatchObject({ status: 401 })
            expect(yield* basic(code, {}, ["not%zz", encoded])).toMatchObject({ status: 401 })
            // in the body: 401 without the Basic challenge
            const inBody = yield* exchange({ id: app.id, secret: `${app.secret}x` }, code)
            expect(inBody).toMatchObject({ status: 401, body: rfc("invalid_client") })
            expect(inBody.headers.get("www-authenticate")).toBeNull()
            // no client at all
            expect(
              yield* tokenRequest("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT })
            ).toMatchObject({ status: 401, body: rfc("invalid_client") })
            // none of those spent it
            tokensOf(yield* basic(code))
          })
      )

      it.effect(
        "PKCE: a public client redeems with the S256 verifier; a wrong or malformed verifier burns the code",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("ot_pkce")
            const app = yield* client(owner, "Public App")
            const pkce = { code_challenge: challengeOf(VERIFIER), code_challenge_method: "S256" }
            const publicExchange = (code: string, verifier?: string) =>
              tokenRequest("/oauth2/token", {
                grant_type: "authorization_code",
                code,
                redirect_uri: LOCAL,
                client_id: app.id,
                ...(verifier === undefined ? {} : { code_verifier: verifier })
              })
            const code = yield* approve(owner, app.id, pkce, LOCAL)
            const tokens = tokensOf(yield* publicExchange(code, VERIFIER))
            expect((yield* me(tokens.access_token)).status).toBe(200)
            // wrong, short (42), long (129), missing: each burns its code
            for (const verifier of [`${VERIFIER.slice(0, -1)}x`, "a".repeat(42), "a".repeat(129), undefined]) {
              const burned = yield* approve(owner, app.id, pkce, LOCAL)
              expect(yield* publicExchange(burned, verifier), String(verifier)).toMatchObject({
                status: 400,
                body: rfc("invalid_grant")
              })
              expect(yield* publicExchange(burned, VERIFIER)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            }
            // 43 and 128 characters are fine
            for (const verifier of ["b".repeat(43), "c".repeat(128)]) {
              const fresh = yield* approve(
                owner,
                app.id,
                { code_challenge: challengeOf(verifier), code_challenge_method: "S256" },
                LOCAL
              )
              tokensOf(yield* publicExchange(fresh, verifier))
            }
            // a verifier for a code issued without a challenge: refused (no downgrade), even with the secret
            const plainCode = yield* approve(owner, app.id, {}, LOCAL)
            expect(
              yield* tokenRequest("/oauth2/token", {
                grant_type: "authorization_code",
                code: plainCode,
                redirect_uri: LOCAL,
                client_id: app.id,
                client_secret: app.secret,
                code_verifier: VERIFIER
              })
            ).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            // a code without a challenge needs the secret: a public client gets invalid_client
            expect(yield* publicExchange(yield* approve(owner, app.id, {}, LOCAL))).toMatchObject({
              status: 401,
              body: rfc("invalid_client")
            })
          })
      )

      it.effect(
        "a code is bound to its client and redirect URI, lives 10 minutes, and a second use revokes the first use's tokens",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("ot_bound")
            const someone = yield* user("ot_bound_user")
            const app = yield* client(owner, "Bound App")
            const other = yield* client(owner, "Other App")
            const testHost = yield* TestHost.TestHost
            const first = yield* approve(someone, app.id)
            const tokens = tokensOf(yield* exchange(app, first))
            const replay = yield* exchange(app, first)
            expect(replay).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            expect(yield* me(tokens.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
            expect(
              yield* tokenRequest("/oauth2/token", {
                grant_type: "refresh_token",
                refresh_token: tokens.refresh_token,
                client_id: app.id,
                client_secret: app.secret
              })
            ).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            // another redirect URI (even one registered), another client, none: refused
            expect(yield* exchange(app, yield* approve(someone, app.id), { redirect_uri: LOCAL })).toMatchObject({
              status: 400,
              body: rfc("invalid_grant")
            })
            expect(yield* exchange(other, yield* approve(someone, app.id))).toMatchObject({
              status: 400,
              body: rfc("invalid_grant")
            })
            const noRedirect = yield* tokenRequest("/oauth2/token", {
              grant_type: "authorization_code",
              code: yield* approve(someone, app.id),
              client_id: app.id,
              client_secret: app.secret
            })
            expect(noRedirect).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            expect(yield* exchange(app, "voc_unknown")).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            // ten minutes
            const late = yield* approve(someone, app.id)
            const inTime = yield* approve(someone, app.id)
            yield* testHost.adjustClock("9 minutes")
            tokensOf(yield* exchange(app, inTime))
            yield* testHost.adjustClock("1 minute")
            expect(yield* exchange(app, late)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
          })
      )

      it.effect("refresh: bound to the client, rotates, and a spent refresh token used again revokes the chain", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_refresh")
          const app = yield* client(owner, "Refresh App")
          const other = yield* client(owner, "Thief App")
          const refresh = (token: string, by = app, extra: Record<string, string> = {}) =>
            tokenRequest("/oauth2/token", {
              grant_type: "refresh_token",
              refresh_token: token,
              client_id: by.id,
              client_secret: by.secret,
              ...extra
            })
          const first = tokensOf(yield* exchange(app, yield* approve(owner, app.id)))
          // another client cannot use it, and trying does not spend it
          expect(yield* refresh(first.refresh_token, other)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
          // a confidential grant's refresh needs the secret
          expect(
            yield* tokenRequest("/oauth2/token", {
              grant_type: "refresh_token",
              refresh_token: first.refresh_token,
              client_id: app.id
            })
          ).toMatchObject({ status: 401, body: rfc("invalid_client") })
          const second = yield* refresh(first.refresh_token)
          const rotated = tokensOf(second)
          expect(second.headers.get("cache-control")).toBe("no-store")
          expect(rotated.refresh_token).not.toBe(first.refresh_token)
          expect(rotated.scope).toBe("identify")
          const third = tokensOf(yield* refresh(rotated.refresh_token))
          expect((yield* me(third.access_token)).status).toBe(200)
          // the first refresh token again: refused, and every token of the chain stops
          expect(yield* refresh(first.refresh_token)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
          for (const token of [first.access_token, rotated.access_token, third.access_token]) {
            expect(yield* me(token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          }
          expect(yield* refresh(third.refresh_token)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
          expect(yield* refresh("vor_unknown")).toMatchObject({ status: 400, body: rfc("invalid_grant") })
          expect(yield* refresh(third.access_token)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
        })
      )

      it.effect("revocation answers 200 for any token and ends only the client's own grant", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_revoke")
          const app = yield* client(owner, "Revoke App")
          const other = yield* client(owner, "Bystander App")
          const revoke = (token: string, by = app) =>
            tokenRequest("/oauth2/token/revoke", { token, client_id: by.id, client_secret: by.secret })
          const mine = tokensOf(yield* exchange(app, yield* approve(owner, app.id)))
          const theirs = tokensOf(yield* exchange(other, yield* approve(owner, other.id)))
          for (const token of ["voa_unknown", "vor_unknown", "junk", theirs.access_token, theirs.refresh_token]) {
            const revoked = yield* revoke(token)
            expect(revoked.status, token).toBe(200)
            expect(revoked.headers.get("cache-control")).toBe("no-store")
          }
          // the other client's tokens are untouched
          expect((yield* me(theirs.access_token)).status).toBe(200)
          // revoking the refresh token ends the grant: its access token too
          expect((yield* revoke(mine.refresh_token)).status).toBe(200)
          expect(yield* me(mine.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          expect((yield* revoke(mine.refresh_token)).status).toBe(200)
          // revoking an access token by HTTP Basic (URL-encoded secret)
          expect(
            (yield* tokenRequest(
              "/oauth2/token/revoke",
              { token: theirs.access_token },
              { basic: [other.id, encodeURIComponent(other.secret)] }
            )).status
          ).toBe(200)
          expect(yield* me(theirs.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          // a client that cannot authenticate is told so; a request without a token is malformed
          expect(yield* revoke("voa_unknown", { id: app.id, secret: "wrong" })).toMatchObject({
            status: 401,
            body: rfc("invalid_client")
          })
          expect(yield* tokenRequest("/oauth2/token/revoke", { client_id: app.id })).toMatchObject({
            status: 400,
            body: rfc("invalid_request")
          })
        })
      )

      it.effect("revocation with only `token` (the spec's form): 200 always, and the holder's token ends", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_revoke_bare")
          const app = yield* client(owner, "Bare Revoke App")
          const held = tokensOf(yield* exchange(app, yield* approve(owner, app.id)))
          for (const token of ["voa_unknown", "vor_unknown", "junk"]) {
            const revoked = yield* tokenRequest("/oauth2/token/revoke", { token })
            expect(revoked.status, token).toBe(200)
            expect(revoked.headers.get("cache-control")).toBe("no-store")
          }
          expect((yield* me(held.access_token)).status).toBe(200)
          expect((yield* tokenRequest("/oauth2/token/revoke", { token: held.access_token })).status).toBe(200)
          expect(yield* me(held.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          // the grant is over: its refresh token too
          expect(
            yield* tokenRequest("/oauth2/token", {
              grant_type: "refresh_token",
              refresh_token: held.refresh_token,
              client_id: app.id,
              client_secret: app.secret
            })
          ).toMatchObject({ status: 400, body: rfc("invalid_grant") })
        })
      )

      it.effect("malformed requests: RFC 6749 errors, never the API's shape", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_malformed")
          const app = yield* client(owner, "Strict Token App")
          const credentials = { client_id: app.id, client_secret: app.secret }
          expect(yield* tokenRequest("/oauth2/token", { ...credentials, grant_type: "password" })).toMatchObject({
            status: 400,
            body: rfc("unsupported_grant_type")
          })
          expect(yield* tokenRequest("/oauth2/token", { grant_type: "client_credentials" })).toMatchObject({
            status: 400,
            body: rfc("unsupported_grant_type")
          })
          expect(yield* tokenRequest("/oauth2/token", credentials)).toMatchObject({
            status: 400,
            body: rfc("invalid_request")
          })
          expect(
            yield* tokenRequest("/oauth2/token", { ...credentials, grant_type: "authorization_code" })
          ).toMatchObject({
            status: 400,
            body: rfc("invalid_request")
          })
          for (const [raw, contentType] of [
            [JSON.stringify({ grant_type: "authorization_code" }), "application/json"],
            ["grant_type=refresh_token&grant_type=authorization_code", undefined],
            [`grant_type=authorization_code&code=a%00b&client_id=${app.id}`, undefined],
            [`grant_type=${"x".repeat(5000)}`, undefined],
            ["%FF%FE=%E0%A4%A", undefined],
            ["", "text/plain"]
          ] as const) {
            const refused = yield* tokenRequest(
              "/oauth2/token",
              {},
              { raw, ...(contentType === undefined ? {} : { contentType }) }
            )
            expect(refused.status, raw).toBe(400)
            expect(refused.body, raw).toMatchObject({
              error: expect.any(String),
              error_description: expect.any(String)
            })
            expect(refused.headers.get("cache-control")).toBe("no-store")
          }
        })
      )

      it.effect(
        "a blocked account gets no tokens and its tokens answer 40007; deleting the application ends its grants",
        () =>
          Effect.gen(function* () {
            const staff = yield* register(STAFF_PHONE, "oauth_staff")
            const owner = yield* user("ot_delete")
            const target = yield* user("ot_blocked")
            const app = yield* client(owner, "Doomed App")
            const tokens = tokensOf(yield* exchange(app, yield* approve(target, app.id)))
            const pending = yield* approve(target, app.id)
            const blockPath = `${API}/moderation/users/${target.user_id}/block`
            expect((yield* send("PUT", blockPath, { reason: "spam" }, staff.access_token)).status).toBe(200)
            expect(yield* me(tokens.access_token)).toMatchObject({ status: 403, body: { code: 40007 } })
            expect(yield* exchange(app, pending)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            expect(
              yield* tokenRequest("/oauth2/token", {
                grant_type: "refresh_token",
                refresh_token: tokens.refresh_token,
                client_id: app.id,
                client_secret: app.secret
              })
            ).toMatchObject({ status: 400, body: rfc("invalid_grant") })
            expect((yield* send("DELETE", blockPath, undefined, staff.access_token)).status).toBe(204)
            expect((yield* me(tokens.access_token)).status).toBe(200)

            const unused = yield* approve(target, app.id)
            expect((yield* send("DELETE", `${API}/applications/${app.id}`, undefined, owner.access_token)).status).toBe(
              204
            )
            expect(yield* me(tokens.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
            expect(yield* exchange(app, unused)).toMatchObject({ status: 401, body: rfc("invalid_client") })
          })
      )

      it.effect("a deleted account's grants end with it: its OAuth tokens and pending codes stop", () =>
        Effect.gen(function* () {
          const owner = yield* user("ot_app_keeper")
          const leaving = yield* user("ot_leaving")
          const app = yield* client(owner, "Outliving App")
          const tokens = tokensOf(yield* exchange(app, yield* approve(leaving, app.id)))
          const pending = yield* approve(leaving, app.id)
          expect(
            (yield* send("POST", `${API}/users/@me/delete`, { password: PASSWORD }, leaving.access_token)).status
          ).toBe(200)
          const testHost = yield* TestHost.TestHost
          const carriedOut = yield* testHost.run(
            Effect.gen(function* () {
              const deletions = yield* DeletionsRepo.DeletionsRepo
              const userId = Snowflake.Snowflake.make(leaving.user_id)
              yield* deletions.cancel(userId)
              const now = yield* DateTime.now
              yield* deletions.request({ userId, state: "pending", requestedAt: now, deleteAt: now })
              return yield* Effect.flatMap(Effect.service(AccountDeletion.AccountDeletion), (d) => d.carryOutDue)
            })
          )
          expect(carriedOut).toBe(1)
          expect(yield* me(tokens.access_token)).toMatchObject({ status: 401, body: INVALID_TOKEN })
          expect(yield* exchange(app, pending)).toMatchObject({ status: 400, body: rfc("invalid_grant") })
        })
      )

      it.effect(
        "concurrent redemptions of one code: exactly one succeeds, the others are invalid_grant, none a 500",
        () =>
          Effect.gen(function* () {
            const owner = yield* user("ot_race")
            const app = yield* client(owner, "Race App")
            const code = yield* approve(owner, app.id)
            const answers = yield* Effect.all(
              Array.from({ length: 8 }, () => exchange(app, code)),
              { concurrency: "unbounded" }
            )
            expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
            expect(
              answers.filter((a) => a.status === 400 && (a.body as { error: string }).error === "invalid_grant")
            ).toHaveLength(7)
            // concurrent refreshes of one token: at most one rotation, never a 500
            const tokens = tokensOf(yield* exchange(app, yield* approve(owner, app.id)))
            const refreshes = yield* Effect.all(
              Array.from({ length: 6 }, () =>
                tokenRequest("/oauth2/token", {
                  grant_type: "refresh_token",
                  refresh_token: tokens.refresh_token,
                  client_id: app.id,
                  client_secret: app.secret
                })
              ),
              { concurrency: "unbounded" }
            )
            expect(refreshes.every((a) => a.status === 200 || a.status === 400)).toBe(true)
            expect(refreshes.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1)
          })
      )
    })
  })

  return { user, host }
}

export type { Answer, Tokens }
export { API, answer, INVALID_TOKEN, LOCAL, me, REDIRECT, rfc, tokensOf, VERIFIER, WEB_URL }
