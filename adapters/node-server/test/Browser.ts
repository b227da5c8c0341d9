/**
 * What the browser suites share: Debian's headless Chromium driven by playwright-core (never a
 * downloaded browser), pages that record what the browser complained about, screenshots under
 * test-artifacts/web-pages/, and a person on a running server (API calls, letters and SMS from the
 * dev outbox).
 *
 * Without the browser the suites are skipped with a message, except under CI, where they fail: CI
 * installs the package.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Totp } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { expect } from "vitest"
import { apiCaller, type Running, registerByPhone, start, stopAll, tempDataDir } from "./ServerHarness.ts"

export const CHROMIUM = process.env.VECHE_CHROMIUM ?? "/usr/bin/chromium"
export const ARTIFACTS = path.resolve(import.meta.dirname, "../../../test-artifacts/web-pages")
export const available = fs.existsSync(CHROMIUM)

if (!available) {
  const message = `${CHROMIUM} is missing: the browser tests of the web pages are skipped (install Debian's chromium package: apt-get install chromium)`
  if (process.env.CI) throw new Error(`${message}; CI must run them`)
  console.warn(message)
}

export const PASSWORD = "correct horse battery"
export const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

/** The flags Chromium needs on a closed network, as root, without a GPU; a fresh profile each time. */
export const launch = async (): Promise<{ context: BrowserContext; close: () => Promise<void> }> => {
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
export const open = async (context: BrowserContext) => {
  const page = await context.newPage()
  const problems: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text())
  })
  page.on("pageerror", (error) => problems.push(String(error)))
  return { page, problems }
}

export const shot = async (page: Page, name: string) => {
  fs.mkdirSync(ARTIFACTS, { recursive: true })
  const file = path.join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
  console.log(`screenshot: ${file}`)
}

/** A person on the server: API calls and their letters and SMS from the dev outbox. */
export const person = (server: Running) => {
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
  /** Registers by phone and answers the access token. */
  const register = async (phone: string, username: string) =>
    (await registerByPhone(server.base, phone, username, PASSWORD)).access_token
  /** Adds an address to the account and answers the link of the letter that asks to confirm it. */
  const addEmail = async (token: string, email: string) => {
    expect((await call("POST", "/users/@me/email", { password: PASSWORD, email }, token)).status).toBe(200)
    return String((await newest(email, "email_verify")).link)
  }
  /**
   * Turns TOTP on with `SECRET`. Codes of the previous, current and next period are accepted, each
   * once: this starts clear of a period's end and enables with the previous period's code (as
   * AccountStory does), so `stepCode(0)` and `stepCode(1)` stay free for the test.
   */
  const enableTotp = async (token: string) => {
    const intoPeriod = Date.now() % (Totp.PERIOD_SECONDS * 1000)
    if (intoPeriod > 20_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoPeriod + 100))
    expect(
      (await call("POST", "/auth/mfa/totp", { password: PASSWORD, secret: SECRET, code: stepCode(-1) }, token)).status
    ).toBe(200)
  }
  /** `POST /auth/login` as a client sends it (the dev captcha); answers the response as it is. */
  const login = (name: string, password = PASSWORD, extra: Record<string, string> = {}) =>
    call("POST", "/auth/login", { login: name, password, captcha_token: "dev", ...extra })
  return { call, newest, register, login, addEmail, enableTotp }
}

/** The app code of `offset` periods from now for `SECRET`. */
export const stepCode = (offset: number): string =>
  OtplibTotpCodes.codeAt(SECRET, Date.now() + offset * Totp.PERIOD_SECONDS * 1000)

/**
 * The reference server on an embedded PostgreSQL of its own (dev secrets, `SERVICE_WEB_URL` unset so
 * letters link to the server's own pages) and Chromium, for one suite; `end` stops both (SIGTERM:
 * the server stops its embedded PostgreSQL) and removes the data.
 */
export const pagesServer = async (env: Record<string, string> = {}) => {
  const dataDir = tempDataDir()
  delete process.env.SERVICE_WEB_URL
  const server = await start({
    DATABASE_URL: "",
    SERVICE_DATA_DIR: dataDir,
    SERVICE_CODE_SECRET: "",
    SERVICE_SECRET_KEYS: "",
    ...env
  })
  const browser = await launch()
  const end = async () => {
    await browser.close()
    await server.stop()
    await stopAll()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  return { server, browser, end }
}
