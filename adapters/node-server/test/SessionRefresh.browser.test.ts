/**
 * The pages' sessions (sign-in.js) in Chromium against a reference server whose access tokens live
 * three seconds (SERVICE_ACCESS_TOKEN_TTL). The staff panel keeps working past each token's end by refreshing
 * (sign-in.js), two calls that find the token expired together cause exactly one refresh (the API
 * ends the whole session when a used refresh token comes again, so a second would sign the person
 * out), a reload keeps the session, and a session ended on the server sends the person back to
 * sign in after one refused refresh. The OAuth consent page, signed in before its token ended,
 * still sends the person's answer.
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { available, type launch, open, PASSWORD, pagesServer, person } from "./Browser.ts"
import { type Running, stopAll } from "./ServerHarness.ts"

const STAFF_PHONE = "+79051260001"
const TTL_MS = 3_000

/** Past the access token's end (the server compares whole instants: a little more). */
const outlive = () => new Promise((resolve) => setTimeout(resolve, TTL_MS + 700))

describe.skipIf(!available)("the pages' sessions in Chromium (access tokens of 3 s)", () => {
  let server: Running
  let browser: Awaited<ReturnType<typeof launch>>
  let end: (() => Promise<void>) | undefined

  beforeAll(async () => {
    ;({ server, browser, end } = await pagesServer({
      SERVICE_STAFF_PHONES: STAFF_PHONE,
      SERVICE_BILLING_PROVIDER: "none",
      SERVICE_ACCESS_TOKEN_TTL: `${TTL_MS / 1000} seconds`
    }))
  }, 120_000)
  afterAll(async () => {
    // a suite whose start failed half way still stops what it started
    await (end ?? stopAll)()
  })

  /**
   * Every request the page sends to the API, by method and path (without the base and the query),
   * and every answer with its status after them.
   */
  const recorded = (page: Page) => {
    const paths: Array<string> = []
    const answers: Array<string> = []
    const apiPath = (address: string) => {
      const url = new URL(address)
      return url.pathname.startsWith("/api/v10/") ? url.pathname.slice(8) : null
    }
    page.on("request", (request) => {
      const path = apiPath(request.url())
      if (path !== null) paths.push(`${request.method()} ${path}`)
    })
    page.on("response", (response) => {
      const path = apiPath(response.url())
      if (path !== null) answers.push(`${response.request().method()} ${path} ${response.status()}`)
    })
    return {
      paths,
      answers,
      count: (wanted: string) => paths.filter((p) => p === wanted).length
    }
  }

  it("the panel outlives its access tokens: one refresh per expiry, however many calls find it", async () => {
    const api = person(server)
    await api.register(STAFF_PHONE, "session_staff")
    await api.register("+79051260002", "session_target")
    const { page, problems } = await open(browser.context)
    const sent = recorded(page)
    await page.goto(`${server.base}/staff`)
    await page.getByLabel("Phone number").fill(STAFF_PHONE)
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Staff panel" }).waitFor()
    // The pair is kept for this tab only.
    await expect(
      page.evaluate("({ session: Object.keys(window.sessionStorage).sort(), local: window.localStorage.length })")
    ).resolves.toEqual({ session: ["veche.staff.access_token", "veche.staff.refresh_token"], local: 0 })
    const firstRefresh = String(await page.evaluate("window.sessionStorage.getItem('veche.staff.refresh_token')"))
    expect(sent.count("POST /auth/refresh")).toBe(0)

    // Past the token's end: the search still works, after one refresh and the search sent again.
    await outlive()
    await page.getByRole("button", { name: "Users" }).click()
    const finds = sent.count("GET /moderation/users")
    await page.getByLabel("User id or phone").fill("+79051260002")
    await page.getByRole("button", { name: "Find" }).click()
    await expect.poll(async () => page.locator("#found-id").textContent()).toContain("@session_target")
    expect(sent.count("POST /auth/refresh")).toBe(1)
    expect(sent.count("GET /moderation/users") - finds).toBe(2)
    // The refresh token rotated: the tab keeps the new one, the old one is spent.
    const secondRefresh = String(await page.evaluate("window.sessionStorage.getItem('veche.staff.refresh_token')"))
    expect(secondRefresh).not.toBe(firstRefresh)

    // Two calls in one task, both with the expired token: exactly one refresh, both answered.
    await outlive()
    await page.evaluate(
      'document.getElementById("find-form").requestSubmit(); document.querySelector(".tab[data-tab=audit]").click()'
    )
    // Each was refused once and answered when sent again with the renewed token.
    const last = (path: string) => sent.answers.filter((a) => a.startsWith(`GET ${path} `)).slice(-2)
    await expect
      .poll(() => last("/moderation/users"))
      .toEqual(["GET /moderation/users 401", "GET /moderation/users 200"])
    await expect
      .poll(() => last("/moderation/audit-log"))
      .toEqual(["GET /moderation/audit-log 401", "GET /moderation/audit-log 200"])
    expect(sent.count("POST /auth/refresh")).toBe(2)
    // Nothing more comes later (a second refresh would have reused the token and ended the session).
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(sent.count("POST /auth/refresh")).toBe(2)
    await expect(page.locator("#panel").isVisible()).resolves.toBe(true)
    await expect(page.locator("#login").isVisible()).resolves.toBe(false)
    const thirdRefresh = String(await page.evaluate("window.sessionStorage.getItem('veche.staff.refresh_token')"))
    expect(thirdRefresh).not.toBe(secondRefresh)

    // A reload past the token's end opens the panel again from the tab's pair.
    await outlive()
    await page.reload()
    await page.getByRole("heading", { name: "Staff panel" }).waitFor()
    expect(sent.count("POST /auth/refresh")).toBe(3)

    // Signing out ends the session on the server even when the access token has expired: the
    // expired token's logout is refused, a refresh gives a fresh one, and that one's logout ends it.
    await outlive()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { name: "Staff sign-in" }).waitFor()
    await expect(page.evaluate("window.sessionStorage.length")).resolves.toBe(0)
    await expect
      .poll(() => sent.answers.filter((a) => a.startsWith("POST /auth/")).slice(-3))
      .toEqual(["POST /auth/logout 401", "POST /auth/refresh 200", "POST /auth/logout 204"])

    // The expired tokens' 401s and the refused refresh tokens are logged as failed requests.
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([])
    await page.close()
  }, 90_000)

  it("a session ended on the server sends the person to sign in after one refused refresh", async () => {
    const api = person(server)
    const { page, problems } = await open(browser.context)
    const sent = recorded(page)
    await page.goto(`${server.base}/staff`)
    await page.getByLabel("Phone number").fill(STAFF_PHONE)
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Staff panel" }).waitFor()
    // The session ends elsewhere (as "sign out everywhere" would end it).
    const token = String(await page.evaluate("window.sessionStorage.getItem('veche.staff.access_token')"))
    expect((await api.call("POST", "/auth/logout", undefined, token)).status).toBe(204)
    await page.getByRole("button", { name: "Audit log" }).click()
    await page.getByRole("heading", { name: "Staff sign-in" }).waitFor()
    await expect(page.getByRole("alert").first().textContent()).resolves.toBe("Your session has ended. Sign in again.")
    expect(sent.count("POST /auth/refresh")).toBe(1)
    expect(sent.count("GET /moderation/audit-log")).toBe(2)
    await expect(page.evaluate("window.sessionStorage.length")).resolves.toBe(0)
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([])
    await page.close()
  }, 60_000)

  it("the consent page sends the answer after its access token has ended", async () => {
    const api = person(server)
    const developer = await api.register("+79051260003", "session_dev")
    const created = await api.call("POST", "/applications", { name: "Session Client" }, developer)
    expect(created.status).toBe(201)
    const appId = (created.body as { id: string }).id
    // The server's own page stands in for the application's callback.
    const callback = `${server.base}/oauth2/authorized`
    expect((await api.call("PATCH", `/applications/${appId}`, { redirect_uris: [callback] }, developer)).status).toBe(
      200
    )
    await api.register("+79051260004", "session_person")
    const { page, problems } = await open(browser.context)
    const sent = recorded(page)
    const query = new URLSearchParams({
      client_id: appId,
      response_type: "code",
      scope: "identify",
      redirect_uri: callback,
      state: "late-1"
    })
    await page.goto(`${server.base}/oauth2/authorize?${query}`)
    await page.getByLabel("Phone number or e-mail").fill("+79051260004")
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Session Client wants to access your account" }).waitFor()
    await outlive()
    await page.getByRole("button", { name: "Authorize" }).click()
    await page.waitForURL((url) => url.href.startsWith(callback))
    const landed = new URL(page.url())
    expect(landed.searchParams.get("state")).toBe("late-1")
    expect(landed.searchParams.get("code")).toMatch(/.+/)
    expect(sent.answers.filter((a) => a.startsWith("POST /"))).toEqual([
      "POST /auth/login 200",
      "POST /oauth2/authorize 401",
      "POST /auth/refresh 200",
      "POST /oauth2/authorize 200"
    ])
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([])
    await page.close()
  }, 60_000)
})
