/**
 * Opaque bearer secrets, shared by every domain that hands one out (session tokens, links, bot
 * tokens, client secrets): a type prefix and 32 random bytes (256 bits) in base64url, of which only
 * the SHA-256 digest is ever stored, so a leaked table grants nothing. Prefixes never begin with
 * "bot" or "bearer" in any letter case: bot libraries strip such a leading word from a token.
 * Only the prefixes declared in `TokenPrefixes` can be minted.
 */
import { Buffer } from "node:buffer"
import { hash } from "node:crypto"
import { Effect, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
import type { TokenPrefix } from "./TokenPrefixes.ts"

export interface Minted {
  /** Shown to the client once. */
  readonly token: Redacted.Redacted<string>
  /** What the store keeps and looks up by. */
  readonly digest: string
}

export interface OpaqueSecrets {
  readonly mint: (prefix: TokenPrefix) => Effect.Effect<Minted>
  /**
   * Two secrets from one draw of the host's randomness (64 bytes, each secret its own 32): a
   * session's token pair. Each draw costs a call into the CSPRNG whatever its size.
   */
  readonly mintPair: (first: TokenPrefix, second: TokenPrefix) => Effect.Effect<readonly [Minted, Minted]>
  /** The digest a presented token is looked up by. */
  readonly digest: (token: Redacted.Redacted<string>) => Effect.Effect<string>
}

/**
 * The digest a token is stored and looked up by: SHA-256 of its UTF-8 bytes, in hex. Synchronous,
 * so that the edge can digest a request's Authorization header once and hand the digest to the
 * lookup (`Sessions.authenticate`'s `digest`) rather than each step hashing it again. The one-shot
 * `hash` (a string is hashed as UTF-8) costs a fifth of a `createHash` object's update and digest.
 */
export const digestOf = (token: string): string => hash("sha256", token, "hex")

const SECRET_BYTES = 32

/** Minting and digesting over the host's secure randomness (read once, at layer build). */
export const make: Effect.Effect<OpaqueSecrets, never, SecureRandom.SecureRandom> = Effect.gen(function* () {
  const random = yield* SecureRandom.SecureRandom
  const digest = (token: Redacted.Redacted<string>) => Effect.sync(() => digestOf(Redacted.value(token)))
  const minted = (prefix: TokenPrefix, bytes: Uint8Array): Minted => {
    // base64url without padding, as effect's `Base64Url.encode` spells it, natively
    const token = `${prefix}${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url")}`
    return { token: Redacted.make(token), digest: digestOf(token) }
  }
  return {
    mint: (prefix) => Effect.map(random.randomBytes(SECRET_BYTES), (bytes) => minted(prefix, bytes)),
    mintPair: (first, second) =>
      Effect.map(
        random.randomBytes(2 * SECRET_BYTES),
        (bytes) =>
          [minted(first, bytes.subarray(0, SECRET_BYTES)), minted(second, bytes.subarray(SECRET_BYTES))] as const
      ),
    digest
  }
})
