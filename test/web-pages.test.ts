/**
 * The web pages the letters link to, through the test host: each page and asset answers with the
 * headers a page holding a secret in its URL needs, unknown files are 404, and opening a link (GET,
 * as a mail scanner or a link preview does) consumes nothing: the token still works afterwards.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Permissions } from "@veche/guilds"
import { TestHost } from "@veche/test-host"
import { Page } from "@veche/web"
import { Effect } from "effect"
import { awaitMessage, freshAddress, json, post, register } from "./support/Accounts.ts"

const get = (path: string, init?: RequestInit) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.fetch(path, init))

const text = (response: Response) => Effect.promise(() => response.text())

describe("Web pages", () => {
  layer(TestHost.layer())((it) => {
    it.effect("each page answers HTML with a strict policy, no referrer, no caching and no framing", () =>
      Effect.gen(function* () {
        for (const page of Page.all) {
          const response = yield* get(`${page.path}?token=vlk_anything`)
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
          expect(response.headers.get("referrer-policy")).toBe("no-referrer")
          expect(response.headers.get("cache-control")).toBe("no-store")
          expect(response.headers.get("x-frame-options")).toBe("DENY")
          expect(response.headers.get("x-content-type-options")).toBe("nosniff")
          const policy = response.headers.get("content-security-policy") ?? ""
          expect(policy).toContain("default-src 'none'")
          expect(policy).toContain("script-src 'self'")
          expect(policy).toContain("frame-ancestors 'none'")
          expect(policy).not.toContain("unsafe-inline")
          const html = yield* text(response)
          expect(html).toMatch(/^<!doctype html>\n<html lang="en">/)
          // A page with a script learns the API's base from the server.
          if (html.includes("<script")) expect(html).toContain('<meta name="veche-api-base" content="/api/v10">')
          expect(html).not.toContain("{{")
          // No inline script: every <script> loads a file (the policy would block any other).
          for (const tag of html.split("<script").slice(1)) {
            expect(tag.slice(0, tag.indexOf(">"))).toMatch(/^ type="module" src="\/web-assets\/[\w-]+\.js"$/)
          }
          // Every input has its label.
          for (const id of [...html.matchAll(/<input id="([\w-]+)"/g)].map((m) => m[1])) {
            expect(html).toContain(`<label for="${id}">`)
          }
        }
      })
    )

    it.effect("the scripts and the style sheet are served with their types; other names are 404", () =>
      Effect.gen(function* () {
        for (const [name, type] of Object.entries(Page.assets)) {
          const response = yield* get(`${Page.ASSETS_PATH}/${name}`)
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toBe(type)
          expect(response.headers.get("x-content-type-options")).toBe("nosniff")
          expect((yield* text(response)).length).toBeGreaterThan(100)
        }
        for (const path of [
          `${Page.ASSETS_PATH}/missing.js`,
          `${Page.ASSETS_PATH}/..%2Fpackage.json`,
          `${Page.ASSETS_PATH}/../package.json`,
          `${Page.ASSETS_PATH}/verify-email.html`,
          "/web-assets",
          "/verify-email/extra",
          "/oauth2/authorize/extra",
          "/oauth2"
        ]) {
          const response = yield* get(path)
          expect(response.status, path).toBe(404)
          expect(yield* json(response), path).toEqual({ code: 0, message: "404: Not Found" })
        }
        // The pages answer GET only; a POST to a page's path is the API's 404, not a confirmation.
        expect((yield* get("/verify-email?token=x", { method: "POST", body: "{}" })).status).toBe(404)
      })
    )

    it.effect(
      "every module a served script imports is served too (a shared module missing from the list would 404)",
      () =>
        Effect.gen(function* () {
          const served = new Set([...Object.keys(Page.assets), ...Object.keys(Page.vendor)])
          let seen = 0
          for (const name of Object.keys(Page.assets).filter((n) => n.endsWith(".js"))) {
            const source = yield* text(yield* get(`${Page.ASSETS_PATH}/${name}`))
            // Each import is one line ending in `from "./name"` (no regular expression: the check
            // for super-linear patterns would rightly flag a multi-line one).
            const imports = source
              .split("\n")
              .filter((line) => line.startsWith("import ") && line.includes(' from "./'))
              .map((line) => line.slice(line.lastIndexOf(' from "./') + ' from "./'.length, -1))
            seen += imports.length
            for (const imported of imports)
              expect(served.has(String(imported)), `${name} imports ${imported}`).toBe(true)
          }
          // The scan reads this code's own import lines (the pages import api.js at least).
          expect(seen).toBeGreaterThanOrEqual(Page.all.length)
          // The pages that sign in share one module: both import it and neither posts /auth/login itself.
          for (const name of ["staff.js", "oauth2-authorize.js"]) {
            const source = yield* text(yield* get(`${Page.ASSETS_PATH}/${name}`))
            expect(source).toMatch(/from "\.\/sign-in\.js"/)
            expect(source).not.toContain("/auth/login")
          }
        })
    )

    it.effect("opening the confirmation link consumes nothing: the token still confirms afterwards", () =>
      Effect.gen(function* () {
        yield* register("+79261190001", "web_confirm", { email: "web.confirm@example.org" })
        const letter = yield* awaitMessage("web.confirm@example.org", "email_verify")
        expect(letter?.link).toBe(`${TestHost.WEB_URL}/verify-email?token=${letter?.token}`)
        const link = new URL(String(letter?.link))
        for (let i = 0; i < 3; i++) expect((yield* get(link.pathname + link.search)).status).toBe(200)
        const confirmed = yield* post("/api/v10/auth/email/verify", { token: letter?.token })
        expect(confirmed.status).toBe(200)
        expect(yield* json(confirmed)).toEqual({ email: "web.confirm@example.org" })
      })
    )

    it.effect("opening the reset link consumes nothing: the token still sets the password afterwards", () =>
      Effect.gen(function* () {
        yield* register("+79261190002", "web_reset", { email: "web.reset@example.org" })
        const confirm = yield* awaitMessage("web.reset@example.org", "email_verify")
        expect((yield* post("/api/v10/auth/email/verify", { token: confirm?.token })).status).toBe(200)
        yield* post(
          "/api/v10/auth/recover/email",
          { email: "web.reset@example.org", captcha_token: "dev" },
          undefined,
          freshAddress()
        )
        const letter = yield* awaitMessage("web.reset@example.org", "email_recover")
        const link = new URL(String(letter?.link))
        expect(link.pathname).toBe("/reset-password")
        for (let i = 0; i < 3; i++) expect((yield* get(link.pathname + link.search)).status).toBe(200)
        const done = yield* post("/api/v10/auth/recover/email/verify", {
          token: letter?.token,
          new_password: "a brand new password"
        })
        expect(done.status).toBe(200)
      })
    )

    it.effect("the consent page and its result page answer; the consent page learns the captcha provider", () =>
      Effect.gen(function* () {
        const consent = yield* get("/oauth2/authorize?client_id=1&response_type=code&scope=identify")
        expect(consent.status).toBe(200)
        const html = yield* text(consent)
        expect(html).toContain('<meta name="veche-captcha" content="dev">')
        expect(html).toContain('<script type="module" src="/web-assets/oauth2-authorize.js">')
        const done = yield* get("/oauth2/authorized")
        expect(done.status).toBe(200)
        expect(yield* text(done)).toContain("You may close this tab.")
      })
    )
  })

  it.effect("a refusal's field messages name each field once, however deep the field is", () =>
    Effect.gen(function* () {
      // A path in a variable: the page's script is plain JavaScript, loaded as the browser does.
      const file = new URL("../packages/web/assets/api.js", import.meta.url).href
      const module = (yield* Effect.promise(() => import(file))) as {
        explain: (
          result: { status: number; body: unknown },
          labels: Record<string, string>
        ) => { text: string; fields: Array<string> } | null
      }
      const refusal = {
        status: 400,
        body: {
          code: 50035,
          message: "Invalid Form Body",
          errors: {
            months: { _errors: [{ code: "NUMBER_TYPE_MAX", message: "Value should be at most 24." }] },
            plan: { id: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } }
          }
        }
      }
      expect(module.explain(refusal, { months: "Months (1–24)", "plan.id": "Plan" })).toEqual({
        text: "Months (1–24): Value should be at most 24. Plan: This field is required",
        fields: ["months", "plan.id"]
      })
    })
  )

  it.effect("the consent page's permission list is the guilds' flags, each once, in words", () =>
    Effect.gen(function* () {
      // A path in a variable: the page's script is plain JavaScript, loaded as the browser does.
      const file = new URL("../packages/web/assets/permissions.js", import.meta.url).href
      const module = (yield* Effect.promise(() => import(file))) as {
        PERMISSIONS: ReadonlyArray<{ bit: bigint; words: string }>
        canGrant: (held: string, bit: bigint) => boolean
      }
      const bits = module.PERMISSIONS.map((p) => p.bit)
      expect(new Set(bits).size).toBe(bits.length)
      expect([...bits].sort((a, b) => (a < b ? -1 : 1))).toEqual(
        Object.values(Permissions.Flags).sort((a, b) => (a < b ? -1 : 1))
      )
      for (const p of module.PERMISSIONS) expect(p.words.length).toBeGreaterThan(5)
      const held = (Permissions.Flags.SendMessages | Permissions.Flags.ViewChannel).toString()
      expect(module.canGrant(held, Permissions.Flags.SendMessages)).toBe(true)
      expect(module.canGrant(held, Permissions.Flags.BanMembers)).toBe(false)
      expect(module.canGrant(Permissions.Flags.Administrator.toString(), Permissions.Flags.BanMembers)).toBe(true)
    })
  )
})
