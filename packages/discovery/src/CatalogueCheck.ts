/**
 * The catalogue check, a durable job: listed guilds that no longer meet the publication conditions
 * (members left, the rules channel was unset, the owner turned 2FA off, a disallowed word appeared
 * in a name or staff added one) become `auto_hidden`, the unmet conditions given as the reason the
 * owner reads in DiscoverySettings; guilds it hid are listed again once the conditions are met.
 * Guilds hidden by reports or by staff, and removed ones, are left to staff.
 *
 * Every node runs it (the layer forks the worker in its scope, as OAuthSweep does): a round claims
 * batches of guilds not checked for `every` (the store hands each row to one claimant: SKIP LOCKED
 * on PostgreSQL), so nodes share the work instead of repeating it, and the state changes are
 * conditional (an owner's or staff's change made meanwhile stands). State lives in the database:
 * a restarted node simply claims what is due.
 */
import { Config, Context, DateTime, Duration, Effect, Layer, Option, type Scope } from "effect"
import { Discovery } from "./Discovery.ts"
import { DiscoveryRepo } from "./DiscoveryRepo.ts"

/** Listings claimed at once. */
export const BATCH = 200
/** Batches in one round at most (a round then ends; the next one continues). */
export const MAX_BATCHES = 50
/** Rounds' interval unless `SERVICE_DISCOVERY_CHECK_INTERVAL` says otherwise. */
export const DEFAULT_EVERY = Duration.hours(1)

/** What the owner reads when the check hid the guild. */
export const reasonFor = (messages: ReadonlyArray<string>): string =>
  `Hidden automatically: the server no longer meets the catalogue's conditions. ${messages.join(" ")}`

export interface Checked {
  readonly checked: number
  readonly hidden: number
  readonly relisted: number
}

export class CatalogueCheck extends Context.Service<
  CatalogueCheck,
  {
    /** One round now (the worker calls it; so may operators and tests). */
    readonly check: Effect.Effect<Checked>
  }
>()("@veche/discovery/CatalogueCheck") {
  static readonly layer = (
    every: Duration.Duration = DEFAULT_EVERY
  ): Layer.Layer<CatalogueCheck, never, DiscoveryRepo | Discovery> =>
    Layer.effect(
      CatalogueCheck,
      Effect.gen(function* () {
        const repo = yield* DiscoveryRepo
        const discovery = yield* Discovery
        const scope: Scope.Scope = yield* Effect.scope
        // At least a second between rounds, whatever is configured: never a busy loop.
        const pause = Duration.max(every, Duration.seconds(1))

        const check = Effect.gen(function* () {
          const total = { checked: 0, hidden: 0, relisted: 0 }
          for (let batch = 0; batch < MAX_BATCHES; batch++) {
            const now = yield* DateTime.now
            // Due: not checked within the interval (less a second, so a round on schedule finds them).
            const cutoff = DateTime.subtractDuration(now, Duration.subtract(pause, Duration.seconds(1)))
            const claimed = yield* repo.claimDue(cutoff, now, BATCH)
            for (const listing of claimed) {
              const evaluation = yield* discovery.evaluate(listing)
              if (Option.isNone(evaluation)) continue
              total.checked++
              const { sufficient, unmet } = evaluation.value
              if (!sufficient) {
                const wasListed = listing.state === "listed"
                const reason = reasonFor(unmet.map((condition) => condition.message))
                if (
                  (wasListed || listing.reason !== reason) &&
                  (yield* repo.hideForConditions(listing.guildId, reason, now))
                )
                  if (wasListed) total.hidden++
              } else if (listing.state === "auto_hidden" && (yield* repo.relist(listing.guildId, now))) {
                total.relisted++
              }
            }
            if (claimed.length < BATCH) break
          }
          return total satisfies Checked
        }).pipe(Effect.withSpan("CatalogueCheck.check"))

        // A failed round (the database is down) is logged and the next one tries again.
        const round = check.pipe(
          Effect.flatMap((done) =>
            done.hidden + done.relisted > 0
              ? Effect.logInfo(`catalogue check: hid ${done.hidden}, listed again ${done.relisted} of ${done.checked}`)
              : Effect.void
          ),
          Effect.catchCause((cause) => Effect.logError("catalogue check failed", cause))
        )
        yield* Effect.forkIn(Effect.forever(Effect.andThen(round, Effect.sleep(pause))), scope)

        return CatalogueCheck.of({ check })
      })
    )

  /** `SERVICE_DISCOVERY_CHECK_INTERVAL` (1 hour). */
  static readonly layerConfig: Layer.Layer<CatalogueCheck, Config.ConfigError, DiscoveryRepo | Discovery> =
    Layer.unwrap(
      Effect.map(Config.Duration("SERVICE_DISCOVERY_CHECK_INTERVAL").pipe(Config.withDefault(DEFAULT_EVERY)), (every) =>
        CatalogueCheck.layer(every)
      )
    )
}
