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
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Totp } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller, type Running, start, stopAll, tempDataDir } from "./ServerHarness.ts"

const CHROMIUM = process.env.VECHE_CHROMIUM ?? "/usr/bin/chromium"
const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-artifacts/web-pages")
const available = fs.existsSync(CHROMIUM)

if (!available) {
  const message = `${CHROMIUM} is missing: the browser tests of the web pages are skipped (install Debian's chromium package: apt-get install chromium)`
  if (process.env.CI) throw new Error(`${message}; CI must run them`)
  console.warn(message)
}

const PASSWORD = "correct horse battery"
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

/** The flags Chromium needs on a closed network, as root, without a GPU; a fresh profile each time. */
const launch = async (): Promise<{ context: BrowserContext; close: () => Promise<void> }> => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "veche-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ],
    viewport: { width: 800, height: 760 },
    locale: "en-US"
  })
  return {
    context,
    close: async () => {
      await context.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  }
}

/** A page that records what the browser complained about (a blocked script or style shows up here). */
const open = async (context: BrowserContext) => {
  const page = await context.newPage()
  const problems: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text())
  })
  page.on("pageerror", (error) => problems.push(String(error)))
  return { page, problems }
}

const shot = async (page: Page, name: string) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true })
  const file = path.join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  console.log(`screenshot: ${file}`)
}

/** A person on the server: API calls and their letters and SMS from the dev outbox. */
const person = (server: Running) => {
  const call = apiCaller(server.base)
  const newest = async (to: string, kind: string, after = 0) => {
    for (let i = 0; i < 100; i++) {
      const outbox = await call("GET", `/dev/outbox?to=${encodeURIComponent(to)}`)
      const found = (
        outbox.body as { messages: Array<{ kind: string; code?: string; link?: string }> }
      ).messages.filter((m) => m.kind === kind)
      if (found.length > after) return found.at(-1) as { code?: string; link?: string }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no ${kind} message for ${to}`)
  }
  const register = async (phone: string, username: string) => {
    const started = await call("POST", "/auth/register/phone", { phone, captcha_token: "dev" })
    expect(started.status).toBe(200)
    const registered = await call("POST", "/auth/register/verify", {
      verification_id: (started.body as { verification_id: string }).verification_id,
      code: (await newest(phone, "register")).code,
      username,
      password: PASSWORD,
      date_of_birth: "1990-05-05",
      consent: true
    })
    expect(registered.status).toBe(201)
    return (registered.body as { access_token: string }).access_token
  }
  /** Adds an address to the account and answers the link of the letter that asks to confirm it. */
  const addEmail = async (token: string, email: string) => {
    expect((await call("POST", "/users/@me/email", { password: PASSWORD, email }, token)).status).toBe(200)
    return String((await newest(email, "email_verify")).link)
  }
  return { call, newest, register, addEmail }
}

describe.skipIf(!available)("the web pages in Chromium", () => {
  const dataDir = tempDataDir()
  let server: Running
  let browser: Awaited<ReturnType<typeof launch>>

  beforeAll(async () => {
    // SERVICE_WEB_URL unset (the harness passes this process's environment on): in dev the letters
    // link to the server's own pages. One server for the suite: embedded PostgreSQL starts slowly.
    delete process.env.SERVICE_WEB_URL
    server = await start({
      DATABASE_URL: "",
      SERVICE_DATA_DIR: dataDir,
      SERVICE_CODE_SECRET: "",
      SERVICE_SECRET_KEYS: ""
    })
    browser = await launch()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    // SIGTERM first: the server stops its embedded PostgreSQL (a SIGKILL would leave it running).
    await server?.stop()
    await stopAll()
    fs.rmSync(dataDir, { recursive: true, force: true })
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
    const login = await api.call("POST", "/auth/login", {
      login: "resetter@example.org",
      password: "a brand new password",
      captcha_token: "dev"
    })
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
    // Codes of the previous, current and next period are accepted, each once: start clear of a
    // period's end, and enable with the previous period's code (as AccountStory does).
    const intoPeriod = Date.now() % (Totp.PERIOD_SECONDS * 1000)
    if (intoPeriod > 20_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoPeriod + 100))
    const stepCode = (offset: number) =>
      OtplibTotpCodes.codeAt(SECRET, Date.now() + offset * Totp.PERIOD_SECONDS * 1000)
    expect(
      (await api.call("POST", "/auth/mfa/totp", { password: PASSWORD, secret: SECRET, code: stepCode(-1) }, token))
        .status
    ).toBe(200)
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
    const login = await api.call("POST", "/auth/login", {
      login: "twofactor@example.org",
      password: "another new password",
      captcha_token: "dev",
      code: stepCode(1)
    })
    expect(login.status).toBe(200)
    await page.close()
  }, 90_000)
})
