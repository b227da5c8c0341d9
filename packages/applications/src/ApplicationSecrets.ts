/**
 * Bot tokens and client secrets: a type prefix and 32 random bytes (256 bits) in base64url, stored
 * only as their SHA-256 digest (platform's OpaqueSecrets, as the accounts domain's Tokens). The
 * prefixes are declared in the platform's `TokenPrefixes`, which keeps every kind's distinct.
 */
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import { TOKEN_PREFIXES } from "@veche/platform/TokenPrefixes"
import { Context, Effect, Layer, type Redacted } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"

/** The domain's kinds, with their prefixes from the platform's registry (`TokenPrefixes`). */
export const PREFIXES = {
  /** A bot's token (`Authorization: Bot <token>`). */
  bot: TOKEN_PREFIXES.bot,
  /** An application's OAuth client secret. */
  secret: TOKEN_PREFIXES.clientSecret
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
