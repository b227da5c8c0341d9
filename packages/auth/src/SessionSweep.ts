/**
 * Removing dead sessions: revoked ones and those past their absolute end, with every token they
 * issued. Nothing else ever deletes them, and a live session's refresh chain leaves one spent token
 * per refresh, so without this the tables only grow.
 *
 * The layer runs a worker in its scope: a round at start, then one every `sweepEvery`
 * (SessionsConfig). A round removes batches of `BATCH` sessions until a batch comes back short, or
 * `MAX_BATCHES` are done (the rest waits for the next round), so neither one statement nor one round
 * is unbounded. Every node runs the worker; the store's sweep is safe to run concurrently (each
 * session is removed by one node), so several nodes share the work instead of repeating it, and a
 * restart loses nothing, as the work is read from the store each time.
 *
 * Only sessions dead for `SETTLE` are removed: a request that began while the session was still
 * alive (or on a node whose clock is a little behind) has finished by then.
 */
import { Context, DateTime, Duration, Effect, Layer, type Scope } from "effect"
import { SessionsConfig } from "./SessionsConfig.ts"
import { SessionsRepo, type Swept } from "./SessionsRepo.ts"

/** Sessions removed by one statement. */
export const BATCH = 1_000
/** Batches in one round at most. */
export const MAX_BATCHES = 50
/** How long a session must have been dead before it is removed. */
export const SETTLE = Duration.minutes(1)

export class SessionSweep extends Context.Service<
  SessionSweep,
  {
    /** One round now: answers what it removed (the worker calls it; so may operators and tests). */
    readonly sweep: Effect.Effect<Swept>
  }
>()("@veche/auth/SessionSweep") {
  static readonly layer: Layer.Layer<SessionSweep, never, SessionsRepo | SessionsConfig> = Layer.effect(
    SessionSweep,
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const config = yield* SessionsConfig
      const scope: Scope.Scope = yield* Effect.scope

      const sweep = Effect.gen(function* () {
        const cutoff = DateTime.subtractDuration(yield* DateTime.now, SETTLE)
        let sessions = 0
        let tokens = 0
        for (let batch = 0; batch < MAX_BATCHES; batch++) {
          const swept = yield* repo.sweep(cutoff, BATCH)
          sessions += swept.sessions
          tokens += swept.tokens
          if (swept.sessions < BATCH) break
        }
        return { sessions, tokens }
      }).pipe(Effect.withSpan("SessionSweep.sweep"))

      // A failed round (the database is down) is logged and the next one tries again.
      const round = sweep.pipe(
        Effect.flatMap((swept) =>
          swept.sessions > 0
            ? Effect.logInfo(`session sweep: removed ${swept.sessions} sessions and ${swept.tokens} tokens`)
            : Effect.void
        ),
        Effect.catchCause((cause) => Effect.logError("session sweep failed", cause))
      )
      // At least a second between rounds, whatever is configured: never a busy loop.
      const pause = Duration.max(config.sweepEvery, Duration.seconds(1))
      yield* Effect.forkIn(Effect.forever(Effect.andThen(round, Effect.sleep(pause))), scope)

      return SessionSweep.of({ sweep })
    })
  )
}
