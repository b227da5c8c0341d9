/** The reference server's settings: what it refuses before anything starts (issue 16, items 11 and 15). */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit } from "effect"
import * as ServerConfig from "../src/ServerConfig.ts"

const load = (env: Record<string, string>) =>
  ServerConfig.load.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))), Effect.exit)

const failure = (exit: Exit.Exit<unknown, { readonly message: string }>) =>
  Exit.isFailure(exit)
    ? String(exit.cause.reasons.map((reason) => (reason._tag === "Fail" ? reason.error.message : "")))
    : "started"

describe("ServerConfig", () => {
  it.effect("dev mode (SERVICE_ENV unset or dev) refuses a non-loopback HOST, naming the variables", () =>
    Effect.gen(function* () {
      for (const env of [{ HOST: "0.0.0.0" }, { HOST: "::", SERVICE_ENV: "dev" }, { HOST: "192.168.1.20" }]) {
        const message = failure(yield* load(env))
        expect(message).toContain(`refusing to start in dev mode (SERVICE_ENV unset or dev) on HOST=${env.HOST}`)
        expect(message).toContain("SERVICE_ENV=staging or prod")
        expect(message).toContain("SERVICE_DEV_ON_NETWORK=true")
      }
    })
  )

  it.effect(
    "dev mode starts on loopback, on the network when SERVICE_DEV_ON_NETWORK=true, and any HOST outside dev",
    () =>
      Effect.gen(function* () {
        for (const env of [
          {},
          { HOST: "localhost" },
          { HOST: "::1" },
          { HOST: "127.0.0.5" },
          { HOST: "0.0.0.0", SERVICE_DEV_ON_NETWORK: "true" },
          { HOST: "0.0.0.0", SERVICE_ENV: "prod" },
          { HOST: "0.0.0.0", SERVICE_ENV: "staging" }
        ]) {
          const exit = yield* load(env)
          expect({ env, ok: Exit.isSuccess(exit) }).toEqual({ env, ok: true })
        }
        const exposed = yield* load({ HOST: "0.0.0.0", SERVICE_DEV_ON_NETWORK: "true" })
        expect(Exit.isSuccess(exposed) && exposed.value.devOnNetwork).toBe(true)
      })
  )

  it.effect("reads the slow-client timeouts, and refuses a headers timeout longer than the request's", () =>
    Effect.gen(function* () {
      const defaults = yield* load({})
      expect(Exit.isSuccess(defaults) && Duration.toSeconds(defaults.value.headersTimeout)).toBe(20)
      expect(Exit.isSuccess(defaults) && Duration.toSeconds(defaults.value.requestTimeout)).toBe(60)
      const message = failure(
        yield* load({ SERVICE_HEADERS_TIMEOUT: "30 seconds", SERVICE_REQUEST_TIMEOUT: "10 seconds" })
      )
      expect(message).toContain("SERVICE_HEADERS_TIMEOUT must not be longer than SERVICE_REQUEST_TIMEOUT")
    })
  )

  it.effect(
    "reads a user's identify limits (burst per 5 s, daily), and refuses what is not a positive whole number",
    () =>
      Effect.gen(function* () {
        const defaults = yield* load({})
        expect(Exit.isSuccess(defaults) && defaults.value.userIdentifyLimits).toEqual({ total: 1000, burst: 5 })
        const set = yield* load({
          SERVICE_GATEWAY_USER_IDENTIFY_BURST: "20",
          SERVICE_GATEWAY_USER_IDENTIFY_DAILY: "50"
        })
        expect(Exit.isSuccess(set) && set.value.userIdentifyLimits).toEqual({ total: 50, burst: 20 })
        for (const bad of ["0", "-1", "1.5", "many"])
          expect(Exit.isFailure(yield* load({ SERVICE_GATEWAY_USER_IDENTIFY_BURST: bad }))).toBe(true)
        expect(Exit.isFailure(yield* load({ SERVICE_GATEWAY_USER_IDENTIFY_DAILY: "0" }))).toBe(true)
      })
  )

  it.effect("SERVICE_CORS_ORIGINS: origins only; unset, SERVICE_WEB_URL's origin; `none`, none", () =>
    Effect.gen(function* () {
      const origins = (env: Record<string, string>) =>
        Effect.map(load(env), (exit) => (Exit.isSuccess(exit) ? exit.value.corsOrigins : failure(exit)))
      expect(yield* origins({})).toEqual([])
      expect(yield* origins({ SERVICE_WEB_URL: "https://app.example/web" })).toEqual(["https://app.example"])
      expect(
        yield* origins({
          SERVICE_WEB_URL: "https://app.example",
          SERVICE_CORS_ORIGINS: " https://a.example:8443/ ,http://localhost:5173"
        })
      ).toEqual(["https://a.example:8443", "http://localhost:5173"])
      expect(yield* origins({ SERVICE_WEB_URL: "https://app.example", SERVICE_CORS_ORIGINS: "none" })).toEqual([])
      expect(yield* origins({ SERVICE_CORS_ORIGINS: "ftp://x.example" })).toContain("is not an http(s) origin")
      expect(yield* origins({ SERVICE_CORS_ORIGINS: "*" })).toContain("is not an http(s) origin")
    })
  )
})
