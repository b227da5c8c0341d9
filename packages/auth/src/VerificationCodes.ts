/**
 * Short codes sent by SMS or messenger: uniformly random digits (rejection sampling, never modulo of
 * random bytes), stored only as HMAC-SHA256 under a server key — a six-digit code has too little
 * entropy for a plain hash to protect it. All nodes must share the key (`SERVICE_CODE_SECRET`).
 */
import { Config, ConfigProvider, Context, Effect, Layer, Option, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import type { CodeLength } from "./Verification.ts"

export interface IssuedCode {
  /** Goes to the user, once. */
  readonly code: Redacted.Redacted<string>
  /** What the verification record keeps. */
  readonly digest: string
}

const encoder = new TextEncoder()

export class VerificationCodes extends Context.Service<
  VerificationCodes,
  {
    readonly issue: (length: CodeLength) => Effect.Effect<IssuedCode>
    /** The digest of a submitted code, to compare with the stored one. */
    readonly digest: (code: string) => Effect.Effect<string>
  }
>()("@veche/auth/VerificationCodes") {
  static readonly layer = (
    secret: Redacted.Redacted<string>
  ): Layer.Layer<VerificationCodes, never, SecureRandom.SecureRandom | Mac.Mac> =>
    Layer.effect(
      VerificationCodes,
      Effect.gen(function* () {
        const random = yield* SecureRandom.SecureRandom
        const mac = yield* Mac.Mac
        // A malformed key is a configuration defect: the service cannot work without it.
        const key = yield* Effect.orDie(Mac.key(Mac.hmacSha256, encoder.encode(Redacted.value(secret))))
        const digest = (code: string) => Effect.orDie(Effect.map(mac.sign(key, encoder.encode(code)), Hex.encode))
        return VerificationCodes.of({
          issue: (length) =>
            Effect.gen(function* () {
              const value = yield* random.intBetween(0, 10 ** length, { halfOpen: true })
              const code = String(value).padStart(length, "0")
              return { code: Redacted.make(code), digest: yield* digest(code) }
            }),
          digest
        })
      })
    )

  /**
   * `SERVICE_CODE_SECRET` (at least 32 characters). Without it a dev server makes a random one per
   * process (codes then do not survive a restart, which is harmless in dev); other environments
   * refuse to start without it.
   */
  static readonly layerConfig: Layer.Layer<VerificationCodes, Config.ConfigError, SecureRandom.SecureRandom | Mac.Mac> =
    Layer.unwrap(
      Effect.gen(function* () {
        const configured = yield* Config.Redacted("SERVICE_CODE_SECRET").pipe(
          Config.option,
          Config.map(Option.filter((secret) => Redacted.value(secret).length > 0))
        )
        const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
        if (Option.isSome(configured)) {
          if (Redacted.value(configured.value).length < 32) {
            return yield* Config.fail(
              new ConfigProvider.SourceError({ message: "SERVICE_CODE_SECRET must be at least 32 characters" })
            )
          }
          return VerificationCodes.layer(configured.value)
        }
        if (env !== "dev") {
          return yield* Config.fail(
            new ConfigProvider.SourceError({ message: "SERVICE_CODE_SECRET is required outside dev" })
          )
        }
        const random = yield* SecureRandom.SecureRandom
        const bytes = yield* random.randomBytes(32)
        yield* Effect.logWarning("SERVICE_CODE_SECRET is not set: using a random key for this process (dev only)")
        return VerificationCodes.layer(Redacted.make(Hex.encode(bytes)))
      })
    )
}
