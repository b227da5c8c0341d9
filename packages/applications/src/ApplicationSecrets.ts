/**
 * Bot tokens and client secrets: a type prefix and 32 random bytes (256 bits) in base64url, stored
 * only as their SHA-256 digest (as the accounts domain's Tokens). No prefix begins with "bot" or
 * "bearer" in any letter case: bot libraries strip such a leading word from the token they are given.
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { Digest, SecureRandom } from "effect/crypto"
import { Base64Url } from "effect/encoding"

export const PREFIXES = {
  /** A bot's token (`Authorization: Bot <token>`). */
  bot: "vbt_",
  /** An application's OAuth client secret. */
  secret: "vcs_"
} as const
export type Kind = keyof typeof PREFIXES

export interface Minted {
  /** Shown to the owner once. */
  readonly token: Redacted.Redacted<string>
  readonly digest: string
}

const encoder = new TextEncoder()

export class ApplicationSecrets extends Context.Service<
  ApplicationSecrets,
  {
    readonly mint: (kind: Kind) => Effect.Effect<Minted>
    readonly digest: (token: Redacted.Redacted<string>) => Effect.Effect<string>
  }
>()("@veche/applications/ApplicationSecrets") {
  static readonly layer: Layer.Layer<ApplicationSecrets, never, SecureRandom.SecureRandom | Digest.Digest> =
    Layer.effect(
      ApplicationSecrets,
      Effect.gen(function* () {
        const random = yield* SecureRandom.SecureRandom
        const hash = yield* Digest.Digest
        const digest = (token: Redacted.Redacted<string>) =>
          hash.digestHex(Digest.sha256, encoder.encode(Redacted.value(token)))
        return ApplicationSecrets.of({
          mint: (kind) =>
            Effect.gen(function* () {
              const token = Redacted.make(`${PREFIXES[kind]}${Base64Url.encode(yield* random.randomBytes(32))}`)
              return { token, digest: yield* digest(token) }
            }),
          digest
        })
      })
    )
}
