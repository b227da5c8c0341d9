/**
 * What a user's account is entitled to now: the free limits, or Plus's while its term runs. Apart
 * from `Billing` because domains below billing in the kit's stack (guilds' guild cap, users'
 * banner and animated avatar) read it too: it needs only the store and the settings, not the
 * ports billing itself asks of those domains. `Billing.userLimits` answers from it.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { BillingConfig } from "./BillingConfig.ts"
import { BillingRepo } from "./BillingRepo.ts"
import * as Limits from "./Limits.ts"

export class Entitlements extends Context.Service<
  Entitlements,
  {
    /** The user's limits now (free or Plus). */
    readonly userLimits: (userId: Snowflake.Snowflake) => Effect.Effect<Limits.UserLimits>
  }
>()("@veche/billing/Entitlements") {
  static readonly layer: Layer.Layer<Entitlements, never, BillingRepo | BillingConfig> = Layer.effect(
    Entitlements,
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const config = yield* BillingConfig
      const plusLimits = Limits.plus(config.plusUploadBytes)
      return Entitlements.of({
        // Read on every request that shows an account's `premium_type` without a prefetch (the
        // current user's view over stores that do not read it with the token): untraced, as
        // `Sessions.authenticate` is, since a traced `Effect.fn` captures a stack trace a call.
        userLimits: Effect.fnUntraced(function* (userId) {
          const plus = yield* repo.plus(userId)
          const now = yield* DateTime.now
          return Option.exists(plus, (p) => DateTime.isGreaterThan(p.premiumUntil, now)) ? plusLimits : Limits.FREE
        })
      })
    })
  )
}
