/**
 * The web pages in a real browser against the reference server as `./dev start` runs it (embedded
 * PostgreSQL, dev providers, SERVICE_WEB_URL unset so letters link to the server itself): a person
 * adds an e-mail address and confirms it from the letter's link, then resets the password from the
 * recovery letter's link, without and with two-factor authentication.
 *
 * Headless Chromium from Debian's package (`/usr/bin/chromium`) driven by playwright-core; never a
 * downloaded browser. Without it the suite is skipped with a message, except under CI, where it
 * fails: CI installs the package. A screenshot of every page state goes to
 * test-artifacts/web-pages/ (the paths are printed).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { available, type launch, open, pagesServer, person, shot, stepCode } from "./Browser.ts"
import { type Running, stopAll } from "./ServerHarness.ts"

describe.skipIf(!available)("the web pages in Chromium", () => {
  let server: Running
  let browser: Awaited<ReturnType<typeof launch>>
  let end: (() => Promise<void>) | undefined

  beforeAll(async () => {
    ;({ server, browser, end } = await pagesServer())
  }, 60_000)
  afterAll(async () => {
    // a suite whose start failed half way still stops what it started
    await (end ?? stopAll)()
  })

  it("confirms an e-mail address from the letter's link, and only when the button is pressed", async () => {
    const api = person(server)
    const token = await api.register("+79051230001", "web_confirmer")
    const link = await api.addEmail(token, "confirmer@example.org")
    expect(link.startsWith(`${server.base}/verify-email?token=`)).toBe(true)

    const { page, problems } = await open(browser.context)
    const response = await page.goto(link)
    expect(response?.status()).toBe(200)
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer")
    await expect(page.title()).resolves.toBe("Confirm your e-mail address · Veche")
    await shot(page, "verify-email-1-opened")
    // Opening the page confirmed nothing.
    const before = (await api.call("GET", "/users/@me", undefined, token)).body
    expect(before).toMatchObject({ email: null, email_pending: "confirmer@example.org" })

    await page.getByRole("button", { name: "Confirm my address" }).click()
    await page.getByRole("heading", { name: "Address confirmed" }).waitFor()
    await expect(page.getByRole("status").textContent()).resolves.toBe(
      "confirmer@example.org is now confirmed for your account."
    )
    // The result's heading takes the focus, so a screen reader reads it at once.
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("done-title")
    await shot(page, "verify-email-2-confirmed")
    expect((await api.call("GET", "/users/@me", undefined, token)).body).toMatchObject({
      email: "confirmer@example.org"
    })

    // The same link again: used, and the page says so in words.
    await page.goto(link)
    await page.getByRole("button", { name: "Confirm my address" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("This link does not work any more")
    await shot(page, "verify-email-3-used-link")

    // A link that lost its token.
    await page.goto(`${server.base}/verify-email`)
    await expect(page.getByRole("alert").textContent()).resolves.toContain("This link is incomplete")
    await expect(page.getByRole("button", { name: "Confirm my address" }).isDisabled()).resolves.toBe(true)
    await shot(page, "verify-email-4-no-token")
    // The API's refusals are logged by the browser as failed requests (403); nothing else went wrong.
    expect(problems.filter((p) => !p.includes("status of 403"))).toEqual([])
    await page.close()
  }, 60_000)

  it("resets a forgotten password from the recovery letter's link", async () => {
    const api = person(server)
    const token = await api.register("+79051230002", "web_resetter")
    const confirm = await api.addEmail(token, "resetter@example.org")
    expect(
      (await api.call("POST", "/auth/email/verify", { token: new URL(confirm).searchParams.get("token") })).status
    ).toBe(200)
    expect(
      (await api.call("POST", "/auth/recover/email", { email: "resetter@example.org", captcha_token: "dev" })).status
    ).toBe(200)
    const link = String((await api.newest("resetter@example.org", "email_recover")).link)
    expect(link.startsWith(`${server.base}/reset-password?token=`)).toBe(true)

    const { page, problems } = await open(browser.context)
    await page.goto(link)
    await expect(page.title()).resolves.toBe("Choose a new password · Veche")
    await expect(page.getByLabel("Two-factor code").isVisible()).resolves.toBe(false)
    await shot(page, "reset-password-1-opened")

    // Two different passwords: the page says so before asking the server.
    await page.getByLabel("New password", { exact: true }).fill("a brand new password")
    await page.getByLabel("Repeat the new password").fill("a brand new pasword")
    await page.getByRole("button", { name: "Change my password" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("The two passwords are not the same")
    await expect(page.getByLabel("Repeat the new password").getAttribute("aria-invalid")).resolves.toBe("true")
    await page.getByLabel("Show the passwords").check()
    await shot(page, "reset-password-2-mismatch-shown")

    await page.getByLabel("Repeat the new password").fill("a brand new password")
    await page.getByRole("button", { name: "Change my password" }).click()
    await page.getByRole("heading", { name: "Password changed" }).waitFor()
    await shot(page, "reset-password-3-changed")
    expect((await api.call("GET", "/users/@me", undefined, token)).status).toBe(401)
    const login = await api.login("resetter@example.org", "a brand new password")
    expect(login.status).toBe(200)
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  it("asks for the two-factor code when the account has it on, and explains a wrong one", async () => {
    const api = person(server)
    const token = await api.register("+79051230003", "web_twofactor")
    const confirm = await api.addEmail(token, "twofactor@example.org")
    expect(
      (await api.call("POST", "/auth/email/verify", { token: new URL(confirm).searchParams.get("token") })).status
    ).toBe(200)
    await api.enableTotp(token)
    expect(
      (await api.call("POST", "/auth/recover/email", { email: "twofactor@example.org", captcha_token: "dev" })).status
    ).toBe(200)
    const link = String((await api.newest("twofactor@example.org", "email_recover")).link)

    const { page } = await open(browser.context)
    await page.goto(link)
    await page.getByLabel("New password", { exact: true }).fill("another new password")
    await page.getByLabel("Repeat the new password").fill("another new password")
    await page.getByRole("button", { name: "Change my password" }).click()
    // The API answers 60003 with mfa: true; the page shows the code field and moves the focus there.
    await expect(page.getByRole("alert").textContent()).resolves.toContain("uses two-factor authentication")
    await expect(page.getByLabel("Two-factor code").isVisible()).resolves.toBe(true)
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("code")
    await shot(page, "reset-password-4-asks-code")

    // A code of another time: not accepted, said in words.
    await page.getByLabel("Two-factor code").fill(stepCode(-20))
    await page.getByRole("button", { name: "Change my password" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("That two-factor code is not right")
    await shot(page, "reset-password-5-wrong-code")

    await page.getByLabel("Two-factor code").fill(stepCode(0))
    await page.getByRole("button", { name: "Change my password" }).click()
    await page.getByRole("heading", { name: "Password changed" }).waitFor()
    await shot(page, "reset-password-6-changed-with-code")
    const login = await api.login("twofactor@example.org", "another new password", { code: stepCode(1) })
    expect(login.status).toBe(200)
    await page.close()
  }, 90_000)
})
