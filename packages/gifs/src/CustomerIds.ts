/**
 * The customer id a provider sees instead of the user id: HMAC-SHA256 of the user id under the
 * server's key, base64url, first 32 characters (192 bits). Stable per user (the provider's
 * recents and personalisation work), not reversible without the key (user ids are guessable, so a
 * plain hash would not do), and rotating the key rotates every id.
 */
import { Effect, Redacted } from "effect"
import { Mac } from "effect/crypto"
import { Base64Url } from "effect/encoding"

export const LENGTH = 32

const encoder = new TextEncoder()

export interface CustomerIds {
  readonly of: (userId: string) => Effect.Effect<string>
}

export const make = (key: Redacted.Redacted<string>): Effect.Effect<CustomerIds, never, Mac.Mac> =>
  Effect.gen(function* () {
    const mac = yield* Mac.Mac
    // A key that cannot be imported is a configuration defect: nothing works without it.
    const macKey = yield* Effect.orDie(Mac.key(Mac.hmacSha256, encoder.encode(Redacted.value(key))))
    return {
      of: (userId) =>
        Effect.orDie(
          Effect.map(mac.sign(macKey, encoder.encode(userId)), (tag) => Base64Url.encode(tag).slice(0, LENGTH))
        )
    }
  })
