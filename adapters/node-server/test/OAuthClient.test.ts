/**
 * A third-party application signing a user in with oauth4webapi (panva's OAuth 2.0 client, used as
 * its users use it) against the reference server on a random port: the code flow as a public client
 * (PKCE S256, no secret) and as a confidential one (client_secret_basic), the token answers checked
 * by the library, GET /users/@me with the access token, refresh, and revocation. The consent step is
 * the API's (POST /oauth2/authorize with the user's session token), as the consent page calls it.
 * On PostgreSQL (DATABASE_URL, a schema of its own) or the embedded one.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller, type Running, registerByPhone, start, stopAll, tempDataDir } from "./ServerHarness.ts"

const dataDir = tempDataDir()
const databaseUrl = process.env.DATABASE_URL
const onPostgres = databaseUrl !== undefined && databaseUrl !== ""
const schema = `veche_oauth_client_${process.pid}`
const REDIRECT = "http://localhost:7777/callback"
/** The library refuses http unless told; the test server is plain http on loopback. */
const insecure = { [oauth.allowInsecureRequests]: true } as const

describe("oauth4webapi against the reference server", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({
      ...(onPostgres
        ? { DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: schema }
        : { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir }),
      SERVICE_RATE_LIMITS_ENABLED: "false"
    })
  }, 60_000)
  afterAll(async () => {
    await stopAll()
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (onPostgres) {
      const drop = spawn("psql", [databaseUrl ?? "", "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  })

  it("completes the code flow as a public client (PKCE) and a confidential one (Basic), refreshes and revokes", async () => {
    const call = apiCaller(server.base)
    const phone = `+7906${String(process.pid).padStart(7, "0").slice(-7)}`
    const session = await registerByPhone(server.base, phone, "oauth_person")

    const created = await call("POST", "/applications", { name: "Sign In Demo" }, session.access_token)
    const clientId = (created.body as { id: string }).id
    expect(
      (await call("PATCH", `/applications/${clientId}`, { redirect_uris: [REDIRECT] }, session.access_token)).status
    ).toBe(200)
    const secret = (
      (await call("POST", `/applications/${clientId}/secret/reset`, undefined, session.access_token)).body as {
        client_secret: string
      }
    ).client_secret

    const issuer = new URL(`${server.base}/api/v10`)
    const as: oauth.AuthorizationServer = {
      issuer: issuer.href,
      authorization_endpoint: `${server.base}/oauth2/authorize`,
      token_endpoint: `${server.base}/api/v10/oauth2/token`,
      revocation_endpoint: `${server.base}/api/v10/oauth2/token/revoke`,
      code_challenge_methods_supported: ["S256"]
    }
    const client: oauth.Client = { client_id: clientId }

    /** The user's consent through the API, as the consent page sends it; the redirect the browser gets. */
    const consent = async (query: Record<string, string>) => {
      const params = new URLSearchParams({
        client_id: clientId,
        response_type: "code",
        scope: "identify",
        redirect_uri: REDIRECT,
        ...query
      })
      const decided = await call("POST", `/oauth2/authorize?${params}`, { authorize: true }, session.access_token)
      expect(decided.status).toBe(200)
      return new URL((decided.body as { location: string }).location)
    }

    const me = async (accessToken: string) => call("GET", "/users/@me", undefined, accessToken)

    // A public client: PKCE S256, no secret.
    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const redirected = await consent({
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state
    })
    const publicParams = oauth.validateAuthResponse(as, client, redirected, state)
    const publicTokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), publicParams, REDIRECT, verifier, insecure)
    )
    expect(publicTokens).toMatchObject({ token_type: "bearer", expires_in: 604800, scope: "identify" })
    expect((await me(publicTokens.access_token)).body).toMatchObject({ id: session.user_id })

    // A confidential client: the secret by HTTP Basic (the library form-encodes it), no PKCE.
    const confidential = oauth.ClientSecretBasic(secret)
    const codeParams = oauth.validateAuthResponse(as, client, await consent({}), oauth.expectNoState)
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, confidential, codeParams, REDIRECT, oauth.nopkce, insecure)
    )
    expect((await me(tokens.access_token)).status).toBe(200)
    // the same code a second time: the library reports invalid_grant, and the first tokens stop
    await expect(
      oauth
        .authorizationCodeGrantRequest(as, client, confidential, codeParams, REDIRECT, oauth.nopkce, insecure)
        .then((response) => oauth.processAuthorizationCodeResponse(as, client, response))
    ).rejects.toMatchObject({ error: "invalid_grant" })
    expect((await me(tokens.access_token)).status).toBe(401)

    // Refresh (the public client's grant, with its id alone), then revoke.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), publicTokens.refresh_token ?? "", insecure)
    )
    expect(refreshed.refresh_token).not.toBe(publicTokens.refresh_token)
    expect((await me(refreshed.access_token)).status).toBe(200)
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token ?? "", insecure)
    )
    expect((await me(refreshed.access_token)).status).toBe(401)
    // revoking again, or an unknown token: still 200
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, confidential, refreshed.access_token, insecure)
    )
  }, 60_000)
})
