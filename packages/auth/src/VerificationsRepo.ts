/**
 * The port to verification records (phone and e-mail codes), and its in-memory adapter.
 *
 * Every operation is one atomic step of the store: a code is used, counted or replaced by a single
 * conditional change, never by reading a record in JS and writing it back, so concurrent submissions
 * cannot both succeed and cannot slip past the attempt limit. Operations that depend on time take
 * `now` as a parameter rather than reading a clock, so that the memory store (driven by TestClock)
 * and PostgreSQL behave identically under the same contract suite.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import {
  type Channel,
  type CodeLength,
  ConsumeResult,
  isOpen,
  type Purpose,
  type Status,
  type Verification,
  VerificationIdTaken,
  VerificationNotOpen
} from "./Verification.ts"

export class VerificationsRepo extends Context.Service<
  VerificationsRepo,
  {
    /** Stores a new record. */
    readonly create: (record: Verification) => Effect.Effect<void, VerificationIdTaken>
    /**
     * The record with this id, if it has this purpose and has not expired at `now`; none otherwise
     * (the API answers all three alike). Consumed and burned records are returned: their status and
     * `consumedAt` tell. Reading never uses an attempt.
     */
    readonly find: (
      id: Snowflake.Snowflake,
      purpose: Purpose,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<Verification>>
    /**
     * A new code for an open record (resend, or a move to another channel): the old code stops
     * working at once. Moving from another channel to `sms` sets `smsSwitched`; attempts, status and
     * everything else are kept, so a resend never buys more guesses.
     */
    readonly replaceCode: (
      id: Snowflake.Snowflake,
      codeDigest: string,
      codeLength: CodeLength,
      channel: Channel,
      expiresAt: DateTime.Utc
    ) => Effect.Effect<Verification, VerificationNotOpen>
    /**
     * The one-time move of an open mobile-ID check to the service's 6-digit SMS code (channel `sms`,
     * status `needs_code`, `smsSwitched`). Some only for the call that made the switch; none when the
     * record is not an open, unswitched mobile-ID check, so of two concurrent requests exactly one
     * gets to send the SMS. Attempts are kept ("under the same counters").
     */
    readonly switchToSms: (
      id: Snowflake.Snowflake,
      codeDigest: string,
      expiresAt: DateTime.Utc
    ) => Effect.Effect<Option.Option<Verification>>
    /**
     * The carrier's code arrived for a pending mobile-ID check (status `needs_code`, code length 4).
     * None when the record is no longer such a check (moved to SMS meanwhile, used, burned).
     */
    readonly carrierCodeArrived: (
      id: Snowflake.Snowflake,
      codeDigest: string
    ) => Effect.Effect<Option.Option<Verification>>
    /**
     * Submits a code. Every submission is counted first, in the order the store serialises them,
     * and only one counted within `maxAttempts` has its code compared: a burst of guesses cannot
     * have more codes compared than the cap, however it interleaves. The submission after the last
     * tolerated one burns the record (status `failed`), right code or not. A right code succeeds
     * exactly once, and its own attempt counts too (the record it answers has it).
     *
     * `hold`: a right code is counted and answered `Matched`, but the record stays open for a flow
     * that needs a second factor first (recovery with 2FA on); `consumeMatched` then uses it.
     */
    readonly consume: (
      id: Snowflake.Snowflake,
      purpose: Purpose,
      codeDigest: string,
      now: DateTime.Utc,
      options?: { readonly hold?: boolean | undefined }
    ) => Effect.Effect<ConsumeResult>
    /**
     * Uses a record whose code a `hold` submission already matched, without counting again (that
     * submission was the attempt). `Consumed` exactly once; anything else (used, burned, the code
     * replaced meanwhile, expired) means it cannot be used with this code.
     */
    readonly consumeMatched: (
      id: Snowflake.Snowflake,
      purpose: Purpose,
      codeDigest: string,
      now: DateTime.Utc
    ) => Effect.Effect<ConsumeResult>
    /** Sets the status of an open record (the carrier's answer in the mobile-ID flow). */
    readonly setStatus: (id: Snowflake.Snowflake, status: Status) => Effect.Effect<Verification, VerificationNotOpen>
    /**
     * Burns every open record for this target and purpose (recovery succeeded, or a new registration
     * started); answers how many it burned.
     */
    readonly invalidateFor: (target: string, purpose: Purpose) => Effect.Effect<number>
  }
>()("@veche/auth/VerificationsRepo") {
  static readonly layerMemory: Layer.Layer<VerificationsRepo> = Layer.effect(
    VerificationsRepo,
    Effect.gen(function* () {
      // Each operation is a single Ref.modify: the read and the write are one step, like the
      // conditional UPDATE of the SQL adapter.
      const records = yield* Ref.make(new Map<string, Verification>())

      /** Lets `decide` see the record with this id and answer an outcome and, if it changes, its new state. */
      const update = <A>(
        id: string,
        decide: (record: Verification | undefined) => readonly [A, Verification | undefined]
      ): Effect.Effect<A> =>
        Ref.modify(records, (map): [A, Map<string, Verification>] => {
          const [result, next] = decide(map.get(id))
          return [result, next === undefined ? map : new Map(map).set(id, next)]
        })

      const alive = (record: Verification, purpose: Purpose, now: DateTime.Utc): boolean =>
        record.purpose === purpose && DateTime.isGreaterThan(record.expiresAt, now)

      return VerificationsRepo.of({
        create: (record) =>
          Ref.modify(records, (map): [Effect.Effect<void, VerificationIdTaken>, Map<string, Verification>] =>
            map.has(record.id)
              ? [Effect.fail(new VerificationIdTaken({ id: record.id })), map]
              : [Effect.void, new Map(map).set(record.id, record)]
          ).pipe(Effect.flatten),

        find: (id, purpose, now) =>
          Ref.get(records).pipe(
            Effect.map((map) =>
              Option.fromNullishOr(map.get(id)).pipe(Option.filter((record) => alive(record, purpose, now)))
            )
          ),

        replaceCode: (id, codeDigest, codeLength, channel, expiresAt) =>
          update(id, (record) => {
            if (record === undefined || !isOpen(record)) return [Option.none(), undefined] as const
            const next: Verification = {
              ...record,
              codeDigest,
              codeLength,
              channel,
              expiresAt,
              smsSwitched: record.smsSwitched || (record.channel !== "sms" && channel === "sms")
            }
            return [Option.some(next), next] as const
          }).pipe(
            Effect.flatMap(
              Option.match({
                onNone: () => Effect.fail(new VerificationNotOpen({ id })),
                onSome: Effect.succeed
              })
            )
          ),

        switchToSms: (id, codeDigest, expiresAt) =>
          update(id, (record) => {
            if (record === undefined || !isOpen(record) || record.channel !== "mobileid" || record.smsSwitched) {
              return [Option.none(), undefined] as const
            }
            const next: Verification = {
              ...record,
              codeDigest,
              codeLength: 6,
              channel: "sms",
              status: "needs_code",
              expiresAt,
              smsSwitched: true
            }
            return [Option.some(next), next] as const
          }),

        carrierCodeArrived: (id, codeDigest) =>
          update(id, (record) => {
            if (
              record === undefined ||
              !isOpen(record) ||
              record.channel !== "mobileid" ||
              record.smsSwitched ||
              record.status !== "pending"
            ) {
              return [Option.none(), undefined] as const
            }
            const next: Verification = { ...record, codeDigest, codeLength: 4, status: "needs_code" }
            return [Option.some(next), next] as const
          }),

        consume: (id, purpose, codeDigest, now, options) =>
          update(id, (record): readonly [ConsumeResult, Verification | undefined] => {
            if (record === undefined || !alive(record, purpose, now)) return [ConsumeResult.NotFound(), undefined]
            if (record.consumedAt !== null) return [ConsumeResult.Burned(), undefined]
            if (record.status === "failed") return [ConsumeResult.Burned(), undefined]
            if (record.attempts >= record.maxAttempts) {
              // The submission after the last tolerated one: burn, whatever the code.
              return [ConsumeResult.Burned(), { ...record, status: "failed" }]
            }
            // Counted first, then compared: the same order as the SQL adapter's single statement.
            const counted: Verification = { ...record, attempts: record.attempts + 1 }
            if (!sameDigest(record.codeDigest, codeDigest)) {
              return [ConsumeResult.WrongCode({ attemptsLeft: record.maxAttempts - counted.attempts }), counted]
            }
            if (options?.hold === true) return [ConsumeResult.Matched({ record: counted }), counted]
            const consumed: Verification = { ...counted, consumedAt: now, status: "ok" }
            return [ConsumeResult.Consumed({ record: consumed }), consumed]
          }),

        consumeMatched: (id, purpose, codeDigest, now) =>
          update(id, (record): readonly [ConsumeResult, Verification | undefined] => {
            if (record === undefined || !alive(record, purpose, now)) return [ConsumeResult.NotFound(), undefined]
            const usable =
              record.consumedAt === null &&
              record.status !== "failed" &&
              record.attempts <= record.maxAttempts &&
              sameDigest(record.codeDigest, codeDigest)
            if (!usable) return [ConsumeResult.Burned(), undefined]
            const consumed: Verification = { ...record, consumedAt: now, status: "ok" }
            return [ConsumeResult.Consumed({ record: consumed }), consumed]
          }),

        setStatus: (id, status) =>
          update(id, (record) => {
            if (record === undefined || !isOpen(record)) return [Option.none(), undefined] as const
            const next: Verification = { ...record, status }
            return [Option.some(next), next] as const
          }).pipe(
            Effect.flatMap(
              Option.match({
                onNone: () => Effect.fail(new VerificationNotOpen({ id })),
                onSome: Effect.succeed
              })
            )
          ),

        invalidateFor: (target, purpose) =>
          Ref.modify(records, (map): [number, Map<string, Verification>] => {
            let burned = 0
            const next = new Map(map)
            for (const record of map.values()) {
              if (record.target === target && record.purpose === purpose && isBurnable(record)) {
                next.set(record.id, { ...record, status: "failed" })
                burned++
              }
            }
            return [burned, burned === 0 ? map : next]
          })
      })
    })
  )
}

/**
 * Not yet consumed or failed. A record that has run out of attempts but not yet been burned by the
 * next submission is still burned here, so its status says `failed` at once.
 */
const isBurnable = (record: Verification): boolean => record.consumedAt === null && record.status !== "failed"

/**
 * Constant-time comparison of two digests: hashing both sides first gives equal-length inputs to
 * `timingSafeEqual`, so not even the length of the stored digest leaks through timing.
 */
const sameDigest = (stored: string, submitted: string): boolean =>
  timingSafeEqual(createHash("sha256").update(stored).digest(), createHash("sha256").update(submitted).digest())
