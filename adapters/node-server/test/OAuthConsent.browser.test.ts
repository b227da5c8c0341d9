/**
 * The OAuth consent page in a real browser against the reference server as `./dev start` runs it
 * (embedded PostgreSQL, dev providers): a developer registers an application through the API, and a
 * person opens `{web_url}/oauth2/authorize?…` as an application's link would send them there, signs
 * in on the page (with the two-factor step when the account has it), reads what is asked and
 * answers. The application's end is a tiny HTTP listener on 127.0.0.1 that records where the browser
 * landed.
 *
 * Screenshots of every page state go to test-artifacts/web-pages/oauth2-*.png.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Permissions } from "@veche/guilds"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dataUri, png } from "~/test/support/Png"
import { available, type launch, open, PASSWORD, pagesServer, person, shot, stepCode } from "./Browser.ts"
import { type Running, stopAll } from "./ServerHarness.ts"

/** The application's side: answers every request with a small page and remembers the addresses. */
const clientListener = async () => {
  const landed: Array<URL> = []
  const server: Server = createServer((request, response) => {
    landed.push(new URL(request.url ?? "/", "http://127.0.0.1"))
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end('<!doctype html><html lang="en"><title>Client</title><h1>The application got the answer</h1></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  return {
    callback: `http://127.0.0.1:${port}/callback`,
    landed,
    close: () =>
      new Promise<void>((resolve) => {
        // The browser keeps its connections open; close them, or close() waits for them.
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

interface Application {
  readonly id: string
  readonly icon: string | null
  readonly bot?: { readonly id: string }
}

describe.skipIf(!available)("the OAuth consent page in Chromium", () => {
  let server: Running
  let browser: Awaited<ReturnType<typeof launch>>
  let end: (() => Promise<void>) | undefined
  let client: Awaited<ReturnType<typeof clientListener>>
  let developer: string
  let app: Application

  beforeAll(async () => {
    ;({ server, browser, end } = await pagesServer())
    client = await clientListener()
    // One application for the suite, with the listener's address registered.
    const api = person(server)
    developer = await api.register("+79051240001", "consent_dev")
    const created = await api.call("POST", "/applications", { name: "Story Client" }, developer)
    expect(created.status).toBe(201)
    app = created.body as Application
    const updated = await api.call(
      "PATCH",
      `/applications/${app.id}`,
      {
        description: "Reads who you are to greet you by name.",
        icon: dataUri(png(64)),
        redirect_uris: [client.callback]
      },
      developer
    )
    expect(updated.status).toBe(200)
    app = updated.body as Application
  }, 90_000)
  afterAll(async () => {
    await client?.close()
    // a suite whose start failed half way still stops what it started
    await (end ?? stopAll)()
  })

  const authorizeUrl = (query: Record<string, string>) =>
    `${server.base}/oauth2/authorize?${new URLSearchParams(query).toString()}`

  /** An access token of an account registered earlier in the suite, from the API's login. */
  const signedIn = async (phone: string) => {
    const answer = await person(server).login(phone)
    expect(answer.status).toBe(200)
    return (answer.body as { access_token: string }).access_token
  }

  /** Signs in on the page's form, as a person types it. */
  const signIn = async (page: Page, login: string) => {
    await page.getByRole("heading", { name: "Sign in to continue" }).waitFor()
    await page.getByLabel("Phone number or e-mail").fill(login)
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
  }

  it("signs in on the page, shows the request and approves identify: the browser lands on redirect_uri with code and state", async () => {
    const api = person(server)
    await api.register("+79051240002", "consent_person")
    const { page, problems } = await open(browser.context)
    const response = await page.goto(
      authorizeUrl({
        client_id: app.id,
        response_type: "code",
        scope: "identify",
        redirect_uri: client.callback,
        state: "st-1 ümlaut&=",
        prompt: "consent"
      })
    )
    expect(response?.status()).toBe(200)
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'")
    await expect(page.title()).resolves.toBe("Authorize an application · Veche")
    await page.getByRole("heading", { name: "Sign in to continue" }).waitFor()
    await shot(page, "oauth2-1-sign-in")

    // A wrong password: said in words, the field marked.
    await page.getByLabel("Phone number or e-mail").fill("+79051240002")
    await page.getByLabel("Password").fill("not the password")
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("password is not right")
    await expect(page.getByLabel("Password").getAttribute("aria-invalid")).resolves.toBe("true")
    await shot(page, "oauth2-2-wrong-password")

    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    const heading = page.getByRole("heading", { name: "Story Client wants to access your account" })
    await heading.waitFor()
    // The heading takes the focus, so a screen reader starts at what is asked.
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("consent-title")
    await expect(page.locator("#user-name").textContent()).resolves.toBe("@consent_person")
    await expect(page.locator("#app-description").textContent()).resolves.toBe(
      "Reads who you are to greet you by name."
    )
    await expect(page.getByRole("listitem").allTextContents()).resolves.toEqual([
      "Know who you are: your username, display name and avatar"
    ])
    await expect(page.getByLabel("Add the bot to this server").isVisible()).resolves.toBe(false)
    await expect(page.locator("#redirect").textContent()).resolves.toContain(client.callback)
    // The application's icon, loaded from the API's media route (the page's policy allows it).
    const icon = page.locator("#app-mark img")
    await icon.waitFor()
    await expect(icon.getAttribute("src")).resolves.toBe(`/api/v10/app-icons/${app.id}/${app.icon}.png`)
    await expect(page.evaluate("document.querySelector('#app-mark img').naturalWidth")).resolves.toBe(64)
    // Only the token pair is kept, and only for this tab.
    // (A string: this project's types have no DOM.)
    const stored = await page.evaluate(
      "({ session: Object.keys(window.sessionStorage).sort(), local: Object.keys(window.localStorage) })"
    )
    expect(stored).toEqual({ session: ["veche.access_token", "veche.refresh_token"], local: [] })
    await shot(page, "oauth2-3-consent-identify")

    // Keyboard only: Tab from the heading reaches the buttons, Enter on Authorize answers.
    const focusable: Array<string | null> = []
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab")
      focusable.push(await page.locator(":focus").getAttribute("id"))
    }
    expect(focusable).toEqual(["switch", "cancel", "authorize"])
    const landed = client.landed.length
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.href.startsWith(client.callback))
    await page.getByRole("heading", { name: "The application got the answer" }).waitFor()
    await shot(page, "oauth2-4-landed-with-code")
    const at = client.landed[landed]
    expect(at?.pathname).toBe("/callback")
    expect(at?.searchParams.get("state")).toBe("st-1 ümlaut&=")
    expect(at?.searchParams.get("code")).toMatch(/^\S{16,}$/)
    expect(at?.searchParams.get("error")).toBeNull()
    // The code is real: the application redeems it (confidential client) and reads who approved.
    const secret = await api.call("POST", `/applications/${app.id}/secret/reset`, undefined, developer)
    const exchanged = await fetch(`${server.base}/api/v10/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        client_id: app.id,
        client_secret: (secret.body as { client_secret: string }).client_secret,
        code: String(at?.searchParams.get("code")),
        redirect_uri: client.callback
      })
    })
    expect(exchanged.status).toBe(200)
    const { access_token } = (await exchanged.json()) as { access_token: string }
    expect((await api.call("GET", "/users/@me", undefined, access_token)).body).toMatchObject({
      username: "consent_person"
    })
    // The wrong password's 401 is logged by the browser as a failed request; nothing else went wrong.
    expect(problems.filter((p) => !p.includes("status of 401"))).toEqual([])
    await page.close()
  }, 90_000)

  it("Cancel sends the browser back with error=access_denied and the state", async () => {
    const api = person(server)
    await api.register("+79051240003", "consent_refuser")
    const { page, problems } = await open(browser.context)
    await page.goto(
      authorizeUrl({
        client_id: app.id,
        response_type: "code",
        scope: "identify",
        redirect_uri: client.callback,
        state: "refused-1"
      })
    )
    await signIn(page, "+79051240003")
    await page.getByRole("heading", { name: "Story Client wants to access your account" }).waitFor()
    // "Not you?" ends the page's session, on the server too, and asks to sign in again.
    const first = String(await page.evaluate("window.sessionStorage.getItem('veche.access_token')"))
    const firstRefresh = String(await page.evaluate("window.sessionStorage.getItem('veche.refresh_token')"))
    expect((await api.call("GET", "/users/@me", undefined, first)).status).toBe(200)
    await page.getByRole("button", { name: "Not you? Sign in as someone else" }).click()
    await page.getByRole("heading", { name: "Sign in to continue" }).waitFor()
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("login-title")
    await expect(page.evaluate("window.sessionStorage.length")).resolves.toBe(0)
    await expect.poll(async () => (await api.call("GET", "/users/@me", undefined, first)).status).toBe(401)
    // The refresh token the tab kept ended with the session.
    expect((await api.call("POST", "/auth/refresh", { refresh_token: firstRefresh })).status).toBe(401)
    await signIn(page, "+79051240003")
    await page.getByRole("heading", { name: "Story Client wants to access your account" }).waitFor()
    const landed = client.landed.length
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.waitForURL((url) => url.href.startsWith(client.callback))
    const at = client.landed[landed]
    expect(at?.searchParams.get("error")).toBe("access_denied")
    expect(at?.searchParams.get("state")).toBe("refused-1")
    expect(at?.searchParams.get("code")).toBeNull()
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)

  it("scope bot: the person picks a guild they own and the permissions, and the bot is a member with them", async () => {
    const api = person(server)
    const token = await api.register("+79051240004", "consent_owner")
    const guild = await api.call("POST", "/guilds", { name: "Consent Guild" }, token)
    expect(guild.status).toBe(201)
    const guildId = (guild.body as { id: string }).id
    expect(app.bot?.id).toBeDefined()
    const { Flags } = Permissions
    const asked = Flags.ViewChannel | Flags.SendMessages | Flags.ManageMessages
    const { page, problems } = await open(browser.context)
    await page.goto(
      authorizeUrl({ client_id: app.id, response_type: "code", scope: "bot", permissions: asked.toString() })
    )
    await signIn(page, "+79051240004")
    await page.getByRole("heading", { name: "Story Client wants to join a server you manage" }).waitFor()
    const picker = page.getByLabel("Add the bot to this server")
    await expect(picker.locator("option").allTextContents()).resolves.toEqual(["Choose a server", "Consent Guild"])
    // The asked permissions are ticked; the others wait under "Other permissions".
    for (const words of ["See channels", "Send messages", "Manage messages (delete or pin others' messages)"]) {
      await expect(page.getByLabel(words, { exact: true }).isChecked()).resolves.toBe(true)
    }
    await shot(page, "oauth2-5-consent-bot")
    await page.emulateMedia({ colorScheme: "dark" })
    await shot(page, "oauth2-5-consent-bot-dark")
    await page.emulateMedia({ colorScheme: "light" })
    await page.setViewportSize({ width: 380, height: 760 })
    await shot(page, "oauth2-5-consent-bot-narrow")
    await page.setViewportSize({ width: 800, height: 760 })

    // Authorize without a server: the page says so and moves the focus to the picker.
    await page.getByRole("button", { name: "Authorize" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toBe("Choose a server to add the bot to.")
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("guild")
    await shot(page, "oauth2-6-bot-no-server")

    await picker.selectOption({ label: "Consent Guild" })
    await page.getByLabel("Manage messages (delete or pin others' messages)").uncheck()
    await page.getByText("Other permissions").click()
    await page.getByLabel("Add reactions").check()
    await shot(page, "oauth2-7-bot-chosen")
    await page.getByRole("button", { name: "Authorize" }).click()
    await page.waitForURL(`${server.base}/oauth2/authorized`)
    await page.getByRole("heading", { name: "Authorized" }).waitFor()
    await expect(page.getByText("The bot has been added to the server.").isVisible()).resolves.toBe(true)
    await shot(page, "oauth2-8-authorized")

    // The bot is a member, holding a managed role with exactly what was ticked.
    const member = await api.call("GET", `/guilds/${guildId}/members/${app.bot?.id}`, undefined, token)
    expect(member.status).toBe(200)
    const roles = await api.call("GET", `/guilds/${guildId}/roles`, undefined, token)
    const botRole = (roles.body as Array<{ id: string; managed: boolean; permissions: string }>).find(
      (role) => role.managed && (member.body as { roles: Array<string> }).roles.includes(role.id)
    )
    expect(botRole?.permissions).toBe((Flags.ViewChannel | Flags.SendMessages | Flags.AddReactions).toString())
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)

  it("scope bot, cancelled: the page says the bot was not added, and it is not a member", async () => {
    const api = person(server)
    // the owner of the test above (registrations from one address are capped per hour), with a
    // server of their own the bot is not in
    const token = await signedIn("+79051240004")
    const guild = await api.call("POST", "/guilds", { name: "Kept Guild" }, token)
    const guildId = (guild.body as { id: string }).id
    const { page, problems } = await open(browser.context)
    await page.goto(authorizeUrl({ client_id: app.id, scope: "bot", permissions: "2048", guild_id: guildId }))
    await signIn(page, "+79051240004")
    await page.getByRole("heading", { name: "Story Client wants to join a server you manage" }).waitFor()
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.waitForURL(
      (url) => url.pathname === "/oauth2/authorized" && url.searchParams.get("error") === "access_denied"
    )
    await page.getByRole("heading", { name: "Not authorized" }).waitFor()
    await expect(page.getByText("The bot was not added: the authorization was cancelled.").isVisible()).resolves.toBe(
      true
    )
    await expect(page.getByText("The bot has been added to the server.").isVisible()).resolves.toBe(false)
    await shot(page, "oauth2-8b-bot-cancelled")
    const member = await api.call("GET", `/guilds/${guildId}/members/${app.bot?.id}`, undefined, token)
    expect(member.status).toBe(404)
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)

  it("a name and a description without spaces, as long as allowed, wrap inside a phone's screen", async () => {
    const api = person(server)
    const created = await api.call("POST", "/applications", { name: "W".repeat(32) }, developer)
    expect(created.status).toBe(201)
    const wide = created.body as Application
    const described = await api.call(
      "PATCH",
      `/applications/${wide.id}`,
      { description: "d".repeat(400), redirect_uris: [client.callback] },
      developer
    )
    expect(described.status).toBe(200)
    const { page, problems } = await open(browser.context)
    await page.setViewportSize({ width: 375, height: 760 })
    await page.goto(
      authorizeUrl({ client_id: wide.id, response_type: "code", scope: "identify", redirect_uri: client.callback })
    )
    await signIn(page, "+79051240002")
    await page.getByText("wants to access your account").waitFor()
    await expect(page.evaluate("document.documentElement.scrollWidth")).resolves.toBeLessThanOrEqual(375)
    await expect(page.getByText("wants to access your account").isVisible()).resolves.toBe(true)
    await shot(page, "oauth2-4b-consent-long-name-narrow")
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)

  it("a private application's bot, asked for by someone else: refused as the page opens, with the reason", async () => {
    const api = person(server)
    const created = await api.call("POST", "/applications", { name: "Private Helper" }, developer)
    const hidden = created.body as Application
    expect((await api.call("PATCH", `/applications/${hidden.id}`, { bot_public: false }, developer)).status).toBe(200)
    const { page, problems } = await open(browser.context)
    await page.goto(authorizeUrl({ client_id: hidden.id, scope: "bot", permissions: "2048" }))
    await signIn(page, "+79051240003")
    await page
      .getByText("This application's bot is private: only the application's owner can add it to a server.")
      .waitFor()
    await expect(page.getByLabel("Add the bot to this server").isVisible()).resolves.toBe(false)
    await shot(page, "oauth2-13-private-bot")
    // the browser's console shows the refused request; nothing else went wrong
    expect(problems.filter((problem) => !problem.includes("403"))).toEqual([])
    await page.close()
  }, 90_000)

  it("scope bot for a member with Manage Server but not every permission: what they lack cannot be given", async () => {
    const api = person(server)
    const { Flags } = Permissions
    const owner = await api.register("+79051240007", "consent_guild_owner")
    const manager = await api.register("+79051240008", "consent_manager")
    const guild = (await api.call("POST", "/guilds", { name: "Managed Guild" }, owner)).body as {
      id: string
      system_channel_id: string
    }
    const role = await api.call(
      "POST",
      `/guilds/${guild.id}/roles`,
      { name: "Managers", permissions: Flags.ManageGuild.toString() },
      owner
    )
    expect(role.status).toBe(200)
    const invite = await api.call("POST", `/channels/${guild.system_channel_id}/invites`, {}, owner)
    expect((await api.call("POST", `/invites/${(invite.body as { code: string }).code}`, {}, manager)).status).toBe(200)
    const managerId = ((await api.call("GET", "/users/@me", undefined, manager)).body as { id: string }).id
    const given = await api.call(
      "PATCH",
      `/guilds/${guild.id}/members/${managerId}`,
      { roles: [(role.body as { id: string }).id] },
      owner
    )
    expect(given.status).toBe(200)

    const { page, problems } = await open(browser.context)
    const asked = Flags.SendMessages | Flags.BanMembers
    await page.goto(
      authorizeUrl({
        client_id: app.id,
        response_type: "code",
        scope: "bot",
        permissions: asked.toString(),
        guild_id: guild.id
      })
    )
    await signIn(page, "+79051240008")
    await page.getByRole("heading", { name: "Story Client wants to join a server you manage" }).waitFor()
    // The link's guild_id preselects the server; Ban members is asked but the manager lacks it.
    await expect(page.getByLabel("Add the bot to this server").inputValue()).resolves.toBe(guild.id)
    const ban = page.getByLabel("Ban members", { exact: true })
    await expect(ban.isDisabled()).resolves.toBe(true)
    await expect(ban.isChecked()).resolves.toBe(false)
    await expect(page.getByRole("checkbox", { name: "Ban members" }).getAttribute("aria-describedby")).resolves.toMatch(
      /-note$/
    )
    await expect(page.getByText("You do not have this permission in that server").first().isVisible()).resolves.toBe(
      true
    )
    await expect(page.getByLabel("Send messages", { exact: true }).isDisabled()).resolves.toBe(false)
    await shot(page, "oauth2-12-bot-lacking-permission")
    await page.getByRole("button", { name: "Authorize" }).click()
    await page.waitForURL(`${server.base}/oauth2/authorized`)
    const member = await api.call("GET", `/guilds/${guild.id}/members/${app.bot?.id}`, undefined, owner)
    expect(member.status).toBe(200)
    const roles = (await api.call("GET", `/guilds/${guild.id}/roles`, undefined, owner)).body as Array<{
      id: string
      managed: boolean
      permissions: string
    }>
    const botRole = roles.find((r) => r.managed && (member.body as { roles: Array<string> }).roles.includes(r.id))
    expect(botRole?.permissions).toBe(Flags.SendMessages.toString())
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)

  it("a redirect_uri the application did not register, or an unknown application: explained on the page, never followed", async () => {
    const api = person(server)
    await api.register("+79051240005", "consent_wary")
    const { page, problems } = await open(browser.context)
    const bad = authorizeUrl({
      client_id: app.id,
      response_type: "code",
      scope: "identify",
      redirect_uri: `${client.callback}/../evil`,
      state: "s"
    })
    await page.goto(bad)
    await signIn(page, "+79051240005")
    await page.getByRole("heading", { name: "This link cannot be used" }).waitFor()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("is not one the application registered")
    expect(page.url()).toBe(bad)
    await shot(page, "oauth2-9-bad-redirect")

    // The session stays in this tab: the next request needs no new sign-in.
    await page.goto(authorizeUrl({ client_id: "1311000000000000001", response_type: "code", scope: "identify" }))
    await page.getByRole("heading", { name: "This link cannot be used" }).waitFor()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("No application has this client_id")
    await shot(page, "oauth2-10-unknown-application")
    // The API's refusals are logged by the browser as failed requests (400, 404); nothing else.
    expect(problems.filter((p) => !/status of 40[04]/.test(p))).toEqual([])
    await page.close()
  }, 90_000)

  it("an account with two-factor authentication signs in through the code step", async () => {
    const api = person(server)
    const token = await api.register("+79051240006", "consent_twofactor")
    await api.enableTotp(token)
    const { page } = await open(browser.context)
    await page.goto(
      authorizeUrl({ client_id: app.id, response_type: "code", scope: "identify", redirect_uri: client.callback })
    )
    await signIn(page, "+79051240006")
    // The API answers 60003 with mfa: true; the page shows the code field and moves the focus there.
    await expect(page.getByRole("alert").textContent()).resolves.toContain("uses two-factor authentication")
    await expect(page.locator(":focus").getAttribute("id")).resolves.toBe("code")
    await shot(page, "oauth2-11-asks-code")
    await page.getByLabel("Two-factor code").fill(stepCode(-20))
    await page.getByRole("button", { name: "Sign in" }).click()
    await expect(page.getByRole("alert").textContent()).resolves.toContain("That two-factor code is not right")
    await page.getByLabel("Two-factor code").fill(stepCode(0))
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("heading", { name: "Story Client wants to access your account" }).waitFor()
    await expect(page.locator("#user-name").textContent()).resolves.toBe("@consent_twofactor")
    const landed = client.landed.length
    await page.getByRole("button", { name: "Authorize" }).click()
    await page.waitForURL((url) => url.href.startsWith(client.callback))
    expect(client.landed[landed]?.searchParams.get("code")).toMatch(/^\S{16,}$/)
    await page.close()
  }, 120_000)
})
