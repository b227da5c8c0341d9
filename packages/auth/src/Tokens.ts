/**
 * Opaque bearer secrets: a type prefix and 32 random bytes (256 bits) in base64url. Only their
 * SHA-256 digest is ever stored, so a leaked table grants nothing. The prefixes are declared in the
 * platform's `TokenPrefixes` (distinct, none a prefix of another, none beginning with "bot" or
 * "bearer": bot libraries strip such a leading word from the token they are given).
 */
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import { TOKEN_PREFIXES } from "@veche/platform/TokenPrefixes"
import { Context, Effect, Layer, Redacted } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"

/** The accounts domain's kinds, with their prefixes from the platform's registry (`TokenPrefixes`). */
export const PREFIXES = {
  access: TOKEN_PREFIXES.access,
  refresh: TOKEN_PREFIXES.refresh,
  /** The secret inside an e-mail link (confirmation, password change). */
  link: TOKEN_PREFIXES.emailLink,
  /** The secret of a data-export download link. */
  download: TOKEN_PREFIXES.exportDownload
} as const
export type Kind = keyof typeof PREFIXES

export type Minted = OpaqueSecrets.Minted

export class Tokens extends Context.Service<
  Tokens,
  {
    readonly mint: (kind: Kind) => Effect.Effect<Minted>
    /** A session's access and refresh tokens, from one draw of randomness. */
    readonly mintSessionPair: Effect.Effect<{ readonly access: Minted; readonly refresh: Minted }>
    /** The digest a presented token is looked up by. */
    readonly digest: (token: Redacted.Redacted<string>) => Effect.Effect<string>
    /** Which kind a presented token claims to be, from its prefix (it still must be found by digest). */
    readonly kindOf: (token: Redacted.Redacted<string>) => Kind | undefined
  }
>()("@veche/auth/Tokens") {
  static readonly layer: Layer.Layer<Tokens, never, SecureRandom.SecureRandom | Digest.Digest> = Layer.effect(
    Tokens,
    Effect.gen(function* () {
      const secrets = yield* OpaqueSecrets.make
      return Tokens.of({
        mint: (kind) => secrets.mint(PREFIXES[kind]),
        mintSessionPair: Effect.map(secrets.mintPair(PREFIXES.access, PREFIXES.refresh), ([access, refresh]) => ({
          access,
          refresh
        })),
        digest: secrets.digest,
        kindOf: (token) => {
          const value = Redacted.value(token)
          for (const kind of Object.keys(PREFIXES) as ReadonlyArray<Kind>) {
            if (value.startsWith(PREFIXES[kind])) return kind
          }
          return undefined
        }
      })
    })
  )
}
