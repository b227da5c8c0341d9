/**
 * Two reference-server processes on one PostgreSQL (and one Redis, as in production): a session
 * ended through node A is refused by node B on its very next request, on `GET /users/@me` (the
 * token judged in the route's one statement) and on any other route. Nothing about a token is
 * remembered on a node: this pins that a cache, if one is ever added, must keep it so. Runs when
 * DATABASE_URL and REDIS_URL are set.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { apiCaller, clusterAvailable, clusterOf, registerByPhone, start, stopAll } from "./ServerHarness.ts"

afterEach(stopAll)

const INVALID = { code: 50014, message: "Invalid authentication token" }

describe.runIf(clusterAvailable)("revocation across two nodes", () => {
  const cluster = clusterOf("revocation_cluster")
  afterAll(cluster.dropSchema)

  it("node B refuses at once a session ended through node A (logout, then the others ended)", async () => {
    const env = cluster.env
    const a = await start({ ...env, SERVICE_WORKER_ID: "1" })
    const b = await start({ ...env, SERVICE_WORKER_ID: "2" })
    const onA = apiCaller(a.base)
    const onB = apiCaller(b.base)
    const phone = `+7907${String(process.pid % 10_000_000).padStart(7, "0")}`
    const password = "correct horse battery"
    const first = (await registerByPhone(a.base, phone, `revoke_cluster_${process.pid}`, password)).access_token

    // B has seen the token work: whatever it might keep of it, it keeps now
    expect((await onB("GET", "/users/@me", undefined, first)).status).toBe(200)
    expect((await onB("GET", "/users/@me/settings", undefined, first)).status).toBe(200)
    expect((await onA("POST", "/auth/logout", undefined, first)).status).toBe(204)
    expect(await onB("GET", "/users/@me", undefined, first)).toEqual({ status: 401, body: INVALID })
    expect(await onB("GET", "/users/@me/settings", undefined, first)).toEqual({ status: 401, body: INVALID })

    // two more sessions; the second ends the others through A
    const login = async () => {
      const answer = await onA("POST", "/auth/login", { login: phone, password, captcha_token: "dev" })
      expect(answer.status).toBe(200)
      return (answer.body as { access_token: string }).access_token
    }
    const other = await login()
    const kept = await login()
    expect((await onB("GET", "/users/@me", undefined, other)).status).toBe(200)
    expect((await onA("DELETE", "/auth/sessions", undefined, kept)).status).toBe(204)
    expect(await onB("GET", "/users/@me", undefined, other)).toEqual({ status: 401, body: INVALID })
    expect((await onB("GET", "/users/@me", undefined, kept)).status).toBe(200)
  }, 90_000)
})
