/**
 * The credentials that authenticated lately on this node, by digest: the rate limiter gives a
 * request its token's own counters only when its credential is here, and counts anything else (no
 * header, junk, a revoked or expired token) against the client's address. So inventing tokens buys
 * no fresh bucket, and a token's first request on a node counts against its address.
 *
 * The Authorization middleware remembers a credential when it authenticates and forgets it when it
 * does not. Only valid tokens get in, so strangers cannot grow it; it is still bounded (oldest
 * entries go first) and entries lapse `TTL_MS` after their last success. Keys are
 * `RequestCredentials`' `known` (scheme and token digest, computed once per request): the token
 * itself is never kept.
 */
import { Context, Layer } from "effect"

/** How long a credential stays known after it last authenticated. */
export const TTL_MS = 10 * 60_000
/** At most this many credentials are remembered (about 150 bytes each). */
export const CAPACITY = 100_000

export class KnownTokens extends Context.Service<
  KnownTokens,
  {
    /** Whether the credential (its `known` key) authenticated within `TTL_MS` of `nowMs`. */
    readonly isKnown: (key: string, nowMs: number) => boolean
    readonly remember: (key: string, nowMs: number) => void
    readonly forget: (key: string) => void
  }
>()("@veche/rest/KnownTokens") {
  static readonly make = (options: { readonly capacity?: number } = {}): KnownTokens["Service"] => {
    const capacity = options.capacity ?? CAPACITY
    // Insertion order is age order: a refresh re-inserts, so the first entry is the stalest.
    const known = new Map<string, number>()

    const evict = (nowMs: number) => {
      for (const [key, until] of known) if (until <= nowMs) known.delete(key)
      for (const key of known.keys()) {
        if (known.size < capacity) break
        known.delete(key)
      }
    }

    return KnownTokens.of({
      isKnown: (key, nowMs) => {
        const until = known.get(key)
        return until !== undefined && until > nowMs
      },
      remember: (key, nowMs) => {
        const until = known.get(key)
        // Refreshed at most once per half TTL: a token on every request does not churn the map.
        if (until !== undefined && until - nowMs > TTL_MS / 2) return
        known.delete(key)
        if (known.size >= capacity) evict(nowMs)
        known.set(key, nowMs + TTL_MS)
      },
      forget: (key) => {
        known.delete(key)
      }
    })
  }

  static readonly layer: Layer.Layer<KnownTokens> = Layer.sync(KnownTokens, () => KnownTokens.make())
}
