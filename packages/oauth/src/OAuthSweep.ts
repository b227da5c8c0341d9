/**
 * Removing what the OAuth provider can no longer use: codes past their ten minutes, grants revoked
 * (by replay, reuse, revocation, an application's or account's deletion) with every token they
 * issued, and access tokens past their week. Nothing else deletes them, so without this the tables
 * only grow. Spent refresh tokens of a live grant stay: using one again must still end the chain.
 *
 * The layer runs a worker in its scope, as auth's SessionSweep does: a round at start, then one
 * every `every`. A round removes batches of `BATCH` until every kind comes back short or
 * `MAX_BATCHES` are done. Every node runs it; the store's sweep is safe to run concurrently.
 * Only what ended `SETTLE` ago goes: a request that began just before has finished by then.
 */
import { Config, Context, DateTime, Duration, Effect, Layer, type Scope } from "effect"
import { OAuthRepo, type Swept } from "./OAuthRepo.ts"

/** Rows of each kind removed by one statement. */
export const BATCH = 1_000
/** Batches in one round at most. */
export const MAX_BATCHES = 50
/** How long a row must have been dead before it is removed. */
export const SETTLE = Duration.minutes(1)
/** Rounds' interval unless `SERVICE_OAUTH_SWEEP_INTERVAL` says otherwise. */
export const DEFAULT_EVERY = Duration.hours(1)

export class OAuthSweep extends Context.Service<
  OAuthSweep,
  {
    /** One round now: answers what it removed (the worker calls it; so may operators and tests). */
    readonly sweep: Effect.Effect<Swept>
  }
>()("@veche/oauth/OAuthSweep") {
  static readonly layer = (every: Duration.Duration = DEFAULT_EVERY): Layer.Layer<OAuthSweep, never, OAuthRepo> =>
    Layer.effect(
      OAuthSweep,
      Effect.gen(function* () {
        const repo = yield* OAuthRepo
        const scope: Scope.Scope = yield* Effect.scope

        const sweep = Effect.gen(function* () {
          const cutoff = DateTime.subtractDuration(yield* DateTime.now, SETTLE)
          const total = { codes: 0, grants: 0, accessTokens: 0 }
          for (let batch = 0; batch < MAX_BATCHES; batch++) {
            const swept = yield* repo.sweep(cutoff, BATCH)
            total.codes += swept.codes
            total.grants += swept.grants
            total.accessTokens += swept.accessTokens
            if (swept.codes < BATCH && swept.grants < BATCH && swept.accessTokens < BATCH) break
          }
          return total
        }).pipe(Effect.withSpan("OAuthSweep.sweep"))

        // A failed round (the database is down) is logged and the next one tries again.
        const round = sweep.pipe(
          Effect.flatMap((swept) =>
            swept.codes + swept.grants + swept.accessTokens > 0
              ? Effect.logInfo(
                  `oauth sweep: removed ${swept.codes} codes, ${swept.grants} grants, ${swept.accessTokens} access tokens`
                )
              : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logError("oauth sweep failed", cause))
        )
        // At least a second between rounds, whatever is configured: never a busy loop.
        const pause = Duration.max(every, Duration.seconds(1))
        yield* Effect.forkIn(Effect.forever(Effect.andThen(round, Effect.sleep(pause))), scope)

        return OAuthSweep.of({ sweep })
      })
    )

  /** `SERVICE_OAUTH_SWEEP_INTERVAL` (1 hour). */
  static readonly layerConfig: Layer.Layer<OAuthSweep, Config.ConfigError, OAuthRepo> = Layer.unwrap(
    Effect.map(Config.Duration("SERVICE_OAUTH_SWEEP_INTERVAL").pipe(Config.withDefault(DEFAULT_EVERY)), (every) =>
      OAuthSweep.layer(every)
    )
  )
}
