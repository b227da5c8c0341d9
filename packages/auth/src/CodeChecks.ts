/**
 * Opening a check with a fresh code (registration, recovery, phone change, e-mail registration):
 * the code is issued, an earlier open check for the same target and purpose stops working, and the
 * new record is stored; the message carrying the code is queued, never sent on the request path.
 */
import { DeliveryQueue, Snowflake, Tallies } from "@veche/platform"
import { Context, DateTime, Duration, Effect, Layer, type Redacted } from "effect"
import * as Phone from "./Phone.ts"
import { TemporarilyUnavailable } from "./RegistrationErrors.ts"
import * as Verification from "./Verification.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

/** How long a code is valid (the answers' `expires_in`). */
export const CODE_TTL = Duration.minutes(5)

export interface Opened {
  readonly id: Snowflake.Snowflake
  /** Goes into the message, once. */
  readonly code: Redacted.Redacted<string>
  readonly now: DateTime.Utc
}

/** What a started phone check answers. */
export interface Started {
  readonly verificationId: Snowflake.Snowflake
  readonly expiresIn: number
  readonly maskedPhone: string
  readonly channel: "sms" | "messenger" | "console"
}

export const expiresIn = (): number => Math.floor(Duration.toSeconds(CODE_TTL))

export const started = (id: Snowflake.Snowflake, phone: Phone.PhoneNumber, channel: Started["channel"]): Started => ({
  verificationId: id,
  expiresIn: expiresIn(),
  maskedPhone: Phone.mask(phone),
  channel
})

/** The funnel counter a check of each purpose starts (none for a phone change). */
const FUNNEL: Readonly<Record<Verification.Purpose, "registrations_started" | "recoveries_started" | null>> = {
  register: "registrations_started",
  email_register: "registrations_started",
  recover: "recoveries_started",
  change_phone: null
}

export class CodeChecks extends Context.Service<
  CodeChecks,
  {
    readonly open: (options: {
      readonly purpose: Verification.Purpose
      readonly target: string
      readonly channel: Verification.Channel
      /** A carrier check waiting for its call (4 digits) rather than the code issued here. */
      readonly carrier?: boolean | undefined
      /** The account the check is bound to (phone change). */
      readonly userId?: Snowflake.Snowflake | undefined
    }) => Effect.Effect<Opened>
    /** Queues the message; a queue that refuses is `TemporarilyUnavailable` (503). */
    readonly send: (job: DeliveryQueue.Job, what: string) => Effect.Effect<void, TemporarilyUnavailable>
  }
>()("@veche/auth/CodeChecks") {
  static readonly layer: Layer.Layer<
    CodeChecks,
    never,
    VerificationsRepo | VerificationCodes | DeliveryQueue.DeliveryQueue | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    CodeChecks,
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const queue = yield* DeliveryQueue.DeliveryQueue
      const ids = yield* Snowflake.SnowflakeGenerator
      const tallies = yield* Tallies.Tallies
      return CodeChecks.of({
        open: Effect.fnUntraced(function* (options) {
          const issued = yield* codes.issue(6)
          const now = yield* DateTime.now
          yield* verifications.invalidateFor(options.target, options.purpose)
          const id = yield* ids.next
          yield* Effect.orDie(
            verifications.create(Verification.fresh({ ...options, id, codeDigest: issued.digest, now, ttl: CODE_TTL }))
          )
          // The statistics' funnel: registrations and recoveries started (each code sent is a start).
          const started = FUNNEL[options.purpose]
          if (started !== null) yield* tallies.count(started, now)
          return { id, code: issued.code, now }
        }),
        send: (job, what) =>
          queue
            .enqueue(job)
            .pipe(Effect.catchTag("DeliveryUnavailable", () => Effect.fail(new TemporarilyUnavailable({ what }))))
      })
    })
  )
}
