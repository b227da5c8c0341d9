/**
 * The OAuth provider's opaque secrets (platform's OpaqueSecrets: a prefix and 256 random bits,
 * stored as SHA-256 digests): access tokens (`voa_`, sent as `Authorization: Bearer`), refresh
 * tokens (`vor_`) and authorization codes (`voc_`). The access prefix is what tells the
 * Authorization middleware an OAuth token from a session's (`vat_`). No prefix begins with "bot"
 * or "bearer" in any letter case.
 */
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import { TOKEN_PREFIXES } from "@veche/platform/TokenPrefixes"
import { Context, Effect, Layer, Redacted } from "effect"
import { Digest, type SecureRandom } from "effect/crypto"
import { Base64Url } from "effect/encoding"

const encoder = new TextEncoder()

/** Declared with every other kind in platform's TokenPrefixes (distinct, none a prefix of another). */
export const PREFIXES = {
  access: TOKEN_PREFIXES.oauthAccess,
  refresh: TOKEN_PREFIXES.oauthRefresh,
  code: TOKEN_PREFIXES.oauthCode
} as const
export type Kind = keyof typeof PREFIXES

export type Minted = OpaqueSecrets.Minted

/** Which kind a presented secret claims to be, from its prefix (it still must be found by digest). */
export const kindOf = (token: Redacted.Redacted<string>): Kind | undefined => {
  const value = Redacted.value(token)
  if (value.startsWith(PREFIXES.access)) return "access"
  if (value.startsWith(PREFIXES.refresh)) return "refresh"
  if (value.startsWith(PREFIXES.code)) return "code"
  return undefined
}

/** A Bearer token the OAuth provider may have issued (the middleware's cheap routing test). */
export const isAccessToken = (token: Redacted.Redacted<string>): boolean => kindOf(token) === "access"

export class OAuthSecrets extends Context.Service<
  OAuthSecrets,
  {
    readonly mint: (kind: Kind) => Effect.Effect<Minted>
    readonly digest: (token: Redacted.Redacted<string>) => Effect.Effect<string>
    /** base64url(SHA-256(verifier)): the S256 challenge a PKCE verifier answers. */
    readonly challengeOf: (verifier: string) => Effect.Effect<string>
  }
>()("@veche/oauth/OAuthSecrets") {
  static readonly layer: Layer.Layer<OAuthSecrets, never, SecureRandom.SecureRandom | Digest.Digest> = Layer.effect(
    OAuthSecrets,
    Effect.gen(function* () {
      const secrets = yield* OpaqueSecrets.make
      const hash = yield* Digest.Digest
      return OAuthSecrets.of({
        mint: (kind) => secrets.mint(PREFIXES[kind]),
        digest: secrets.digest,
        challengeOf: (verifier) =>
          Effect.map(hash.digest(Digest.sha256, encoder.encode(verifier)), (bytes) => Base64Url.encode(bytes))
      })
    })
  )
}
