/**
 * The background work of billing, run by every node in its scope (like oauth's OAuthSweep): a
 * round at start, then one every `SERVICE_BILLING_JOBS_INTERVAL`. A round renews Plus ending soon
 * from saved cards and frees boost slots whose term ended (the tier falls, GUILD_UPDATE goes out).
 * The state is in the store and each due row is claimed by one node (conditional updates,
 * `FOR UPDATE SKIP LOCKED`), so several nodes never charge or expire twice, and a restart
 * loses nothing.
 */
import { Context, Duration, Effect, Layer, type Scope } from "effect"
import { Billing } from "./Billing.ts"
import { BillingConfig } from "./BillingConfig.ts"

export class BillingJobs extends Context.Service<
  BillingJobs,
  {
    /** One round now (the worker calls it; so may operators and tests). */
    readonly round: Effect.Effect<{ readonly renewed: number; readonly expired: number }>
  }
>()("@veche/billing/BillingJobs") {
  static readonly layer: Layer.Layer<BillingJobs, never, Billing | BillingConfig> = Layer.effect(
    BillingJobs,
    Effect.gen(function* () {
      const billing = yield* Billing
      const config = yield* BillingConfig
      const scope: Scope.Scope = yield* Effect.scope
      const round = Effect.all({ renewed: billing.renew, expired: billing.expire }).pipe(
        Effect.withSpan("BillingJobs.round")
      )
      const logged = round.pipe(
        Effect.flatMap(({ renewed, expired }) =>
          renewed + expired > 0
            ? Effect.logInfo(`billing jobs: ${renewed} renewals tried, ${expired} boosts expired`)
            : Effect.void
        ),
        Effect.catchCause((cause) => Effect.logError("billing jobs failed", cause))
      )
      const pause = Duration.max(config.jobsEvery, Duration.seconds(1))
      yield* Effect.forkIn(Effect.forever(Effect.andThen(logged, Effect.sleep(pause))), scope)
      return BillingJobs.of({ round })
    })
  )
}
