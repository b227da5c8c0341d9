/**
 * Opaque bearer secrets, shared by every domain that hands one out (session tokens, links, bot
 * tokens, client secrets): a type prefix and 32 random bytes (256 bits) in base64url, of which only
 * the SHA-256 digest is ever stored, so a leaked table grants nothing. Prefixes never begin with
 * "bot" or "bearer" in any letter case: bot libraries strip such a leading word from a token.
 * Only the prefixes declared in `TokenPrefixes` can be minted.
 */
import { Effect, Redacted } from "effect"
import { Digest, SecureRandom } from "effect/crypto"
import { Base64Url } from "effect/encoding"
import type { TokenPrefix } from "./TokenPrefixes.ts"

export interface Minted {
  /** Shown to the client once. */
  readonly token: Redacted.Redacted<string>
  /** What the store keeps and looks up by. */
  readonly digest: string
}

export interface OpaqueSecrets {
  readonly mint: (prefix: TokenPrefix) => Effect.Effect<Minted>
  /** The digest a presented token is looked up by. */
  readonly digest: (token: Redacted.Redacted<string>) => Effect.Effect<string>
}

const encoder = new TextEncoder()

/** Minting and digesting over the host's secure randomness and digests (read once, at layer build). */
export const make: Effect.Effect<OpaqueSecrets, never, SecureRandom.SecureRandom | Digest.Digest> = Effect.gen(
  function* () {
    const random = yield* SecureRandom.SecureRandom
    const hash = yield* Digest.Digest
    const digest = (token: Redacted.Redacted<string>) =>
      hash.digestHex(Digest.sha256, encoder.encode(Redacted.value(token)))
    return {
      mint: (prefix) =>
        Effect.gen(function* () {
          const token = Redacted.make(`${prefix}${Base64Url.encode(yield* random.randomBytes(32))}`)
          return { token, digest: yield* digest(token) }
        }),
      digest
    }
  }
)
