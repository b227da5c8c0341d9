/**
 * Bot tokens and client secrets: a type prefix and 32 random bytes (256 bits) in base64url, stored
 * only as their SHA-256 digest (platform's OpaqueSecrets, as the accounts domain's Tokens). No prefix begins with "bot" or
 * "bearer" in any letter case: bot libraries strip such a leading word from the token they are given.
 */
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import { Context, Effect, Layer, type Redacted } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"

export const PREFIXES = {
  /** A bot's token (`Authorization: Bot <token>`). */
  bot: "vbt_",
  /** An application's OAuth client secret. */
  secret: "vcs_"
} as const
export type Kind = keyof typeof PREFIXES

export type Minted = OpaqueSecrets.Minted

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
        const secrets = yield* OpaqueSecrets.make
        return ApplicationSecrets.of({
          mint: (kind) => secrets.mint(PREFIXES[kind]),
          digest: secrets.digest
        })
      })
    )
}
