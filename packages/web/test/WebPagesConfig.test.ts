/** Where the pages call the API, from `SERVICE_WEB_API_URL`, and what their policy then allows. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import * as SecurityHeaders from "../src/SecurityHeaders.ts"
import { WebPagesConfig } from "../src/WebPagesConfig.ts"

const load = (env: Record<string, string>) =>
  Effect.service(WebPagesConfig).pipe(
    Effect.provide(
      WebPagesConfig.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))
    )
  )

describe("WebPagesConfig", () => {
  it.effect("defaults to the API of the same origin", () =>
    Effect.gen(function* () {
      expect(yield* load({})).toMatchObject({ apiBase: "/api/v10", apiOrigin: undefined, captcha: "dev" })
      expect(SecurityHeaders.forPage(undefined)["content-security-policy"]).toContain("connect-src 'self';")
    })
  )

  it.effect("an API elsewhere: its origin joins connect-src, trailing slashes go", () =>
    Effect.gen(function* () {
      const config = yield* load({ SERVICE_WEB_API_URL: "https://api.example.org/api/v10//" })
      expect(config).toMatchObject({ apiBase: "https://api.example.org/api/v10", apiOrigin: "https://api.example.org" })
      const policy = SecurityHeaders.forPage(config.apiOrigin)["content-security-policy"]
      expect(policy).toContain("connect-src 'self' https://api.example.org;")
      expect(policy).toContain("img-src 'self' https://api.example.org;")
    })
  )

  it.effect("the consent page learns the API's captcha provider", () =>
    Effect.gen(function* () {
      expect(yield* load({ SERVICE_CAPTCHA_PROVIDER: "hcaptcha" })).toMatchObject({ captcha: "hcaptcha" })
    })
  )

  it.effect("refuses what is neither a path nor an http(s) URL, or could break out of the page", () =>
    Effect.gen(function* () {
      for (const bad of ["api/v10", "javascript:alert(1)", "https://x.org/a?b=c", '/api"><script>', "ftp://x.org"]) {
        const result = yield* Effect.exit(load({ SERVICE_WEB_API_URL: bad }))
        expect(result._tag, bad).toBe("Failure")
      }
    })
  )
})
