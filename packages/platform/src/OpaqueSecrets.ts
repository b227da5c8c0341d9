/**
 * Opaque bearer secrets, shared by every domain that hands one out (session tokens, links, bot
 * tokens, client secrets): a type prefix and 32 random bytes (256 bits) in base64url, of which only
 * the SHA-256 digest is ever stored, so a leaked table grants nothing. Prefixes never begin with
 * "bot" or "bearer" in any letter case: bot libraries strip such a leading word from a token.
 * Only the prefixes declared in `TokenPrefixes` can be minted.
 */
import { createHash } from "node:crypto"
import { Effect, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
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

/**
 * The digest a token is stored and looked up by: SHA-256 of its UTF-8 bytes, in hex. Synchronous,
 * so that the edge can digest a request's Authorization header once and hand the digest to the
 * lookup (`Sessions.authenticate`'s `digest`) rather than each step hashing it again.
 */
export const digestOf = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")

/** Minting and digesting over the host's secure randomness (read once, at layer build). */
export const make: Effect.Effect<OpaqueSecrets, never, SecureRandom.SecureRandom> = Effect.gen(function* () {
  const random = yield* SecureRandom.SecureRandom
  const digest = (token: Redacted.Redacted<string>) => Effect.sync(() => digestOf(Redacted.value(token)))
  return {
    mint: (prefix) =>
      Effect.gen(function* () {
        const token = Redacted.make(`${prefix}${Base64Url.encode(yield* random.randomBytes(32))}`)
        return { token, digest: yield* digest(token) }
      }),
    digest
  }
})
