/**
 * The port `RouteLimiter.layerRedis` counts over: one Redis command, its reply (or failure) handed
 * to a callback. It runs before every route, so it is the driver's call and nothing more: the
 * limiter makes one Effect step of a whole count (script, reload on NOSCRIPT, answer), where
 * effect's `Redis.send` (a promise, its error mapping, then the limiter's own steps) made several.
 * The adapter keeps a deadline per command (`onFailure` after it), as the driver's own would.
 */
import { Context } from "effect"

export class RouteCountConnection extends Context.Service<
  RouteCountConnection,
  {
    /** Sends `command`; calls exactly one of `onReply` (the decoded reply) or `onFailure`, once. */
    readonly send: (
      command: ReadonlyArray<string>,
      onReply: (reply: unknown) => void,
      onFailure: (cause: unknown) => void
    ) => void
  }
>()("@veche/ratelimit/RouteCountConnection") {}
