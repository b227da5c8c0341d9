/**
 * Billing's own settings (the provider's are the adapter's, `@veche/yookassa`):
 *
 * - `SERVICE_BILLING_PLANS`: JSON array of plans in the spec's shape
 *   (`[{"ID":"plus_1m","Kind":"plus","Name":"…","PriceRub":199,"Months":1}, …]`); default
 *   `Plans.DEFAULT_PLANS`.
 * - `SERVICE_BILLING_PLUS_UPLOAD_MB` (default 50): Plus's upload size.
 * - `SERVICE_BILLING_AUTORENEW` (default true): Plus checkouts ask to save the card and Plus is
 *   renewed with it before it ends (a live YooKassa shop needs autopayments switched on by its manager).
 * - `SERVICE_BILLING_RENEW_DAYS` (default 3): how long before the end a renewal is charged.
 * - `SERVICE_BILLING_JOBS_INTERVAL` (default 5 minutes): how often renewals and boost expiry run.
 */
import { Config, Context, Duration, Effect, Layer, Schema } from "effect"
import { DEFAULT_PLANS, type Plan, PlanList } from "./Plans.ts"

export interface Settings {
  readonly plans: ReadonlyArray<Plan>
  readonly plusUploadBytes: number
  readonly autorenew: boolean
  readonly renewBefore: Duration.Duration
  readonly jobsEvery: Duration.Duration
}

export const defaults: Settings = {
  plans: DEFAULT_PLANS,
  plusUploadBytes: 50 * 1024 * 1024,
  autorenew: true,
  renewBefore: Duration.days(3),
  jobsEvery: Duration.minutes(5)
}

const PlansJson = Schema.fromJsonString(PlanList)

export class BillingConfig extends Context.Service<BillingConfig, Settings>()("@veche/billing/BillingConfig") {
  static readonly layer = (settings: Partial<Settings> = {}): Layer.Layer<BillingConfig> =>
    Layer.succeed(BillingConfig, BillingConfig.of({ ...defaults, ...settings }))

  static readonly layerConfig: Layer.Layer<BillingConfig, Config.ConfigError> = Layer.effect(
    BillingConfig,
    Effect.gen(function* () {
      const plans = yield* Config.schema(PlansJson, "SERVICE_BILLING_PLANS").pipe(Config.withDefault(defaults.plans))
      const uploadMb = yield* Config.schema(
        Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 10_240 }))),
        "SERVICE_BILLING_PLUS_UPLOAD_MB"
      ).pipe(Config.withDefault(50))
      const autorenew = yield* Config.Boolean("SERVICE_BILLING_AUTORENEW").pipe(Config.withDefault(defaults.autorenew))
      const renewDays = yield* Config.schema(
        Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 14 }))),
        "SERVICE_BILLING_RENEW_DAYS"
      ).pipe(Config.withDefault(3))
      const jobsEvery = yield* Config.Duration("SERVICE_BILLING_JOBS_INTERVAL").pipe(
        Config.withDefault(defaults.jobsEvery)
      )
      const ids = new Set(plans.map((plan) => plan.ID))
      if (ids.size !== plans.length) {
        return yield* Effect.die(new Error("SERVICE_BILLING_PLANS: plan IDs must be unique"))
      }
      return BillingConfig.of({
        plans,
        plusUploadBytes: uploadMb * 1024 * 1024,
        autorenew,
        renewBefore: Duration.days(renewDays),
        jobsEvery
      })
    })
  )
}
