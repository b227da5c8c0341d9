/**
 * The Authorization headers that authenticated lately on this node, by digest: the rate limiter
 * gives a request its token's own counters only when its header is here, and counts anything else
 * (no header, junk, a revoked or expired token) against the client's address. So inventing tokens
 * buys no fresh bucket, and a token's first request on a node counts against its address.
 *
 * The Authorization middleware remembers a header when it authenticates and forgets it when it
 * does not. Only valid tokens get in, so strangers cannot grow it; it is still bounded (oldest
 * entries go first) and entries lapse `TTL_MS` after their last success.
 */
import { createHash } from "node:crypto"
import { Context, Layer } from "effect"

/** How long a header stays known after it last authenticated. */
export const TTL_MS = 10 * 60_000
/** At most this many headers are remembered (about 100 bytes each). */
export const CAPACITY = 100_000

/** The counter key of a header: its digest (the token itself never reaches a counter store). */
export const digestOf = (authorization: string): string =>
  createHash("sha256").update(authorization).digest("base64url").slice(0, 32)

export class KnownTokens extends Context.Service<
  KnownTokens,
  {
    /** The header's digest when it authenticated within `TTL_MS` of `nowMs`. */
    readonly digestIfKnown: (authorization: string, nowMs: number) => string | undefined
    readonly remember: (authorization: string, nowMs: number) => void
    readonly forget: (authorization: string) => void
  }
>()("@veche/rest/KnownTokens") {
  static readonly make = (options: { readonly capacity?: number } = {}): KnownTokens["Service"] => {
    const capacity = options.capacity ?? CAPACITY
    // Insertion order is age order: a refresh re-inserts, so the first entry is the stalest.
    const known = new Map<string, number>()

    const evict = (nowMs: number) => {
      for (const [digest, until] of known) if (until <= nowMs) known.delete(digest)
      for (const digest of known.keys()) {
        if (known.size < capacity) break
        known.delete(digest)
      }
    }

    return KnownTokens.of({
      digestIfKnown: (authorization, nowMs) => {
        const digest = digestOf(authorization)
        const until = known.get(digest)
        return until !== undefined && until > nowMs ? digest : undefined
      },
      remember: (authorization, nowMs) => {
        const digest = digestOf(authorization)
        const until = known.get(digest)
        // Refreshed at most once per half TTL: a token on every request does not churn the map.
        if (until !== undefined && until - nowMs > TTL_MS / 2) return
        known.delete(digest)
        if (known.size >= capacity) evict(nowMs)
        known.set(digest, nowMs + TTL_MS)
      },
      forget: (authorization) => {
        known.delete(digestOf(authorization))
      }
    })
  }

  static readonly layer: Layer.Layer<KnownTokens> = Layer.sync(KnownTokens, () => KnownTokens.make())
}
