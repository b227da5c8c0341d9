import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { VerificationCodes } from "../src/VerificationCodes.ts"

const crypto = Layer.mergeAll(
  SecureRandom.layerWebCrypto,
  Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
)
const withSecret = (secret: string) => VerificationCodes.layer(Redacted.make(secret)).pipe(Layer.provide(crypto))
const SECRET = "a-test-secret-that-is-long-enough-0123456789"

describe("VerificationCodes", () => {
  it.effect("issues codes of the asked length whose digest is what `digest` gives for them", () =>
    Effect.gen(function* () {
      const codes = yield* VerificationCodes
      for (const length of [4, 6] as const) {
        const issued = yield* codes.issue(length)
        expect(Redacted.value(issued.code)).toMatch(length === 4 ? /^\d{4}$/ : /^\d{6}$/)
        expect(issued.digest).toMatch(/^[0-9a-f]{64}$/)
        expect(yield* codes.digest(Redacted.value(issued.code))).toBe(issued.digest)
      }
      // the code never shows in logs or errors by accident
      expect(String((yield* codes.issue(6)).code)).toBe("<redacted>")
    }).pipe(Effect.provide(withSecret(SECRET)))
  )

  it.effect("spreads codes evenly over every digit and position (leading zeros included)", () =>
    Effect.gen(function* () {
      const codes = yield* VerificationCodes
      const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0))
      const n = 6_000
      for (let i = 0; i < n; i++) {
        const code = Redacted.value((yield* codes.issue(6)).code)
        for (let p = 0; p < 6; p++) {
          const row = counts[p]
          const digit = Number(code[p])
          if (row !== undefined) row[digit] = (row[digit] ?? 0) + 1
        }
      }
      // each cell expects n/10 = 600; a fair generator stays far inside ±25 % (about 7 standard deviations)
      for (const row of counts) for (const count of row) expect(Math.abs(count - n / 10)).toBeLessThan(150)
    }).pipe(Effect.provide(withSecret(SECRET)))
  )

  it.effect("digests depend on the server key", () =>
    Effect.gen(function* () {
      const one = yield* Effect.provide(
        Effect.flatMap(Effect.service(VerificationCodes), (c) => c.digest("123456")),
        withSecret(SECRET)
      )
      const same = yield* Effect.provide(
        Effect.flatMap(Effect.service(VerificationCodes), (c) => c.digest("123456")),
        withSecret(SECRET)
      )
      const other = yield* Effect.provide(
        Effect.flatMap(Effect.service(VerificationCodes), (c) => c.digest("123456")),
        withSecret(`${SECRET}-other`)
      )
      expect(one).toBe(same)
      expect(one).not.toBe(other)
    })
  )

  const fromEnv = (env: Record<string, string>) =>
    Layer.build(VerificationCodes.layerConfig.pipe(Layer.provide(crypto))).pipe(
      Effect.scoped,
      Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
    )

  it.effect("config: a dev server without a secret makes its own; elsewhere it is required and must be long", () =>
    Effect.gen(function* () {
      yield* fromEnv({ SERVICE_ENV: "dev" })
      yield* fromEnv({ SERVICE_ENV: "prod", SERVICE_CODE_SECRET: SECRET })
      expect((yield* Effect.flip(fromEnv({ SERVICE_ENV: "prod" })))._tag).toBe("ConfigError")
      expect((yield* Effect.flip(fromEnv({ SERVICE_ENV: "staging", SERVICE_CODE_SECRET: "short" })))._tag).toBe(
        "ConfigError"
      )
    })
  )
})
