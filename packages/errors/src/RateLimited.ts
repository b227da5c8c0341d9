/**
 * The 429 answer of the rate limiter. Its body is not a catalogue body: no `code`, and
 * `{message, retry_after, global}` where `retry_after` is in seconds with a fraction (bot libraries
 * read it that way) and `global` says whether the global bucket, not the route's, ran out.
 * Slowmode (20016) is a separate catalogue error, `SlowmodeRateLimit`.
 */
import { Effect, Schema } from "effect"

export const RATE_LIMITED_MESSAGE = "You are being rate limited."

export class RateLimited extends Schema.Error<RateLimited>("RateLimited")(
  {
    _tag: Schema.tagDefaultOmit("RateLimited"),
    message: Schema.String.pipe(Schema.withConstructorDefault(Effect.succeed(RATE_LIMITED_MESSAGE))),
    /** Seconds until a retry may succeed, e.g. 0.731. */
    retry_after: Schema.Number,
    global: Schema.Boolean.pipe(Schema.withConstructorDefault(Effect.succeed(false)))
  },
  { httpApiStatus: 429 }
) {}
