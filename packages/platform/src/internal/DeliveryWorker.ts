/**
 * The delivery queue's worker: takes due jobs from the `DeliveryStore` and hands them to the SMS
 * sender or the mailer, off the request path.
 *
 * It claims jobs (leases of `LEASE`) only as far as it has free slots, and sends each in its own
 * fiber, so one slow provider holds up only its own jobs. A send that outlasts `SEND_TIMEOUT` (well
 * inside the lease) counts as a failure, so no lease runs out under a live worker. After a send:
 * success and permanent refusals remove the job; a transient failure makes it due again after an
 * exponential backoff (`backoff`), or removes it when it would expire before then. Jobs are never
 * sent from their `expiresAt` on; the loop removes them every `SWEEP_INTERVAL` or so.
 *
 * Between rounds the worker waits for a wake-up (a job enqueued on this node, a send that frees a
 * slot or schedules a retry) or for time. On a shared store it polls every `POLL_INTERVAL` for jobs
 * from other nodes. Alone with its store it sleeps exactly until the store's next due job, so an
 * idle worker costs nothing, and a test clock moved by days does not wake it every second.
 *
 * Delivery is at least once, and exactly once unless something breaks mid-way: a node that dies
 * after the provider accepted a message but before the job was removed (or a provider that times
 * out and delivers late anyway) leaves the job to be sent again when the lease runs out. For a
 * verification code, a second copy is better than none.
 *
 * The worker runs in the scope it is started in: closing it interrupts the sends in progress, whose
 * jobs come back when their leases run out.
 */
import { Cause, DateTime, Duration, Effect, FiberSet, Latch, Option, Ref, type Scope, Semaphore } from "effect"
import * as DeliveryJob from "../DeliveryJob.ts"
import * as DeliveryStore from "../DeliveryStore.ts"
import * as Mailer from "../Mailer.ts"
import * as SmsSender from "../SmsSender.ts"

/** How long a claim holds a job; a dead node's jobs are picked up again after this. */
export const LEASE = Duration.seconds(60)
/** How long one send may take before it counts as a transient failure; well inside `LEASE`. */
export const SEND_TIMEOUT = Duration.seconds(30)
/** How often a shared store is checked for jobs from other nodes, retries and run-out leases. */
export const POLL_INTERVAL = Duration.seconds(1)
/** How often, at most, expired jobs are removed from the store. */
export const SWEEP_INTERVAL = Duration.seconds(10)
/** The wait after the first failed attempt; it doubles with each failure up to `MAX_BACKOFF`. */
export const FIRST_BACKOFF = Duration.seconds(2)
export const MAX_BACKOFF = Duration.minutes(1)
/** Sends in progress at once on this node. */
export const MAX_IN_FLIGHT = 16

/** The wait before the attempt after attempt number `attempt` (1, 2, …) failed: 2 s, 4 s, 8 s, … 1 min. */
export const backoff = (attempt: number): Duration.Duration =>
  Duration.min(Duration.times(FIRST_BACKOFF, 2 ** Math.min(Math.max(attempt - 1, 0), 30)), MAX_BACKOFF)

export interface DeliveryWorker {
  /** Tells the worker a job was just added, so it claims at once rather than at the next poll. */
  readonly wake: Effect.Effect<void>
  /** Claims and sends every job due now, and waits until every send of this node has finished. */
  readonly flush: Effect.Effect<void>
}

/** What became of one attempt; `reason` is safe to log (providers word it so). */
type Outcome =
  | { readonly _tag: "Sent" }
  | { readonly _tag: "Transient"; readonly reason: string }
  | { readonly _tag: "Permanent"; readonly reason: string }

const sent: Outcome = { _tag: "Sent" }
const transient = (reason: string): Outcome => ({ _tag: "Transient", reason })
const permanent = (reason: string): Outcome => ({ _tag: "Permanent", reason })

/** Starts the worker in the current scope. */
export const start: Effect.Effect<
  DeliveryWorker,
  never,
  Scope.Scope | DeliveryStore.DeliveryStore | SmsSender.SmsSender | Mailer.Mailer
> = Effect.gen(function* () {
  const store = yield* DeliveryStore.DeliveryStore
  const sms = yield* SmsSender.SmsSender
  const mailer = yield* Mailer.Mailer

  const running = yield* FiberSet.make<void, never>()
  const inFlight = yield* Ref.make(0)
  const wakeUp = yield* Latch.make(false)
  // Claiming and forking the sends happen under one lock, so `flush` cannot look between a claim
  // made by the loop and the fork of its sends, and miss them.
  const claimLock = yield* Semaphore.make(1)

  const attempt = (job: DeliveryJob.Job, now: DateTime.Utc): Effect.Effect<Outcome> => {
    const send: Effect.Effect<Outcome> =
      job._tag === "Sms"
        ? sms.send(DeliveryJob.toSend(job, now)).pipe(
            Effect.as(sent),
            Effect.catchTags({
              SmsUnavailable: (error) => Effect.succeed(transient(`${error.provider}: ${error.reason}`)),
              SmsRejected: (error) => Effect.succeed(permanent(`${error.provider}: ${error.reason}`))
            })
          )
        : mailer.send(job.letter).pipe(
            Effect.as(sent),
            Effect.catchTag("MailUnavailable", (error) =>
              Effect.succeed((error.permanent ? permanent : transient)(`${error.provider}: ${error.reason}`))
            )
          )
    return send.pipe(
      Effect.timeoutOrElse({
        duration: SEND_TIMEOUT,
        orElse: () => Effect.succeed(transient(`no answer within ${Duration.format(SEND_TIMEOUT)}`))
      })
    )
  }

  const process = Effect.fn("DeliveryWorker.process")(function* (claim: DeliveryStore.Claim) {
    const label = `delivery job ${claim.id} (${DeliveryJob.describe(claim.job)}, attempt ${claim.attempt})`
    const startedAt = yield* DateTime.now
    if (DeliveryJob.isExpired(claim.job, startedAt)) {
      yield* store.remove(claim.id)
      return yield* Effect.logWarning(`${label} expired before it could be sent; dropped`)
    }
    const outcome = yield* attempt(claim.job, startedAt)
    switch (outcome._tag) {
      case "Sent": {
        yield* store.remove(claim.id)
        return yield* Effect.logDebug(`${label} sent`)
      }
      case "Permanent": {
        yield* store.remove(claim.id)
        return yield* Effect.logWarning(`${label} refused for good (${outcome.reason}); dropped`)
      }
      case "Transient": {
        const wait = backoff(claim.attempt)
        const at = DateTime.addDuration(yield* DateTime.now, wait)
        if (DeliveryJob.isExpired(claim.job, at)) {
          yield* store.remove(claim.id)
          return yield* Effect.logWarning(
            `${label} failed (${outcome.reason}) and expires before another attempt; dropped`
          )
        }
        const moved = yield* store.retryAt(claim, at)
        // A worker alone with its store sleeps until the next due job: it must hear of this one.
        yield* wakeUp.open
        return yield* moved
          ? Effect.logWarning(`${label} failed (${outcome.reason}); next attempt in ${Duration.format(wait)}`)
          : Effect.logWarning(`${label} failed (${outcome.reason}); its lease had run out, another claim holds it`)
      }
    }
  })

  /** A send has finished: free its slot, and if every slot was taken, let the loop claim again. */
  const finished = Ref.modify(inFlight, (n): [boolean, number] => [n >= MAX_IN_FLIGHT, n - 1]).pipe(
    Effect.flatMap((wasFull) => (wasFull ? wakeUp.open : Effect.void)),
    Effect.asVoid
  )

  // A store fault (the database is down) or a bug must not end the worker: log it and go on. The
  // job of a failed send comes back when its lease runs out.
  const survive =
    (what: string) =>
    <A>(effect: Effect.Effect<A>): Effect.Effect<A | undefined> =>
      effect.pipe(
        Effect.catchCauseIf(
          (cause) => !Cause.hasInterruptsOnly(cause),
          (cause) => Effect.logError(`delivery worker: ${what} failed`, cause).pipe(Effect.as(undefined))
        )
      )

  /**
   * Claims as many due jobs as there are free slots and starts their sends. `more`: every free slot
   * got a job, so more may be due.
   */
  const claimBatch: Effect.Effect<{ readonly claimed: number; readonly more: boolean }> = claimLock.withPermits(1)(
    Effect.gen(function* () {
      const free = MAX_IN_FLIGHT - (yield* Ref.get(inFlight))
      if (free <= 0) return { claimed: 0, more: false }
      const now = yield* DateTime.now
      const claims = yield* store.claim(now, DateTime.addDuration(now, LEASE), free)
      for (const claim of claims) {
        yield* Ref.update(inFlight, (n) => n + 1)
        yield* FiberSet.run(
          running,
          process(claim).pipe(survive(`job ${claim.id}`), Effect.ensuring(finished), Effect.asVoid)
        )
      }
      return { claimed: claims.length, more: claims.length === free }
    })
  )

  /** Claims until nothing more is due or every slot is taken (a finishing send wakes the loop then). */
  const drain = Effect.gen(function* () {
    while ((yield* claimBatch).more) {
      // keep claiming
    }
  })

  /** Removes the expired jobs and says so; no more often than every `SWEEP_INTERVAL`. */
  let nextSweep: DateTime.Utc | undefined
  const sweep = Effect.gen(function* () {
    const now = yield* DateTime.now
    if (nextSweep !== undefined && DateTime.isLessThan(now, nextSweep)) return
    nextSweep = DateTime.addDuration(now, SWEEP_INTERVAL)
    for (const job of yield* store.dropExpired(now)) {
      yield* Effect.logWarning(`delivery job ${job.id} expired after ${job.attempts} attempt(s); dropped`)
    }
  })

  /** The wait before the next round, unless a wake-up ends it first. */
  const idle: Effect.Effect<void> = Effect.gen(function* () {
    if (store.shared) return yield* Effect.sleep(POLL_INTERVAL)
    // Every slot is taken: the next send to finish wakes the loop.
    if ((yield* Ref.get(inFlight)) >= MAX_IN_FLIGHT) return yield* Effect.never
    const now = yield* DateTime.now
    const next = yield* store.nextDue(now)
    if (Option.isNone(next)) return yield* Effect.never
    // Never less than a millisecond: a store whose `nextDue` and `claim` disagreed would otherwise
    // spin the loop.
    yield* Effect.sleep(Duration.max(DateTime.distance(now, next.value), Duration.millis(1)))
  })

  const loop = Effect.gen(function* () {
    while (true) {
      // Closed before the round: a wake-up during it leaves it open, and the wait ends at once.
      yield* wakeUp.close
      yield* survive("removing expired jobs")(sweep)
      yield* survive("claiming")(drain)
      const waited = yield* survive("waiting")(Effect.race(wakeUp.await, idle).pipe(Effect.as(true)))
      // The store failed while computing the wait: fall back to polling.
      if (waited === undefined) yield* Effect.race(wakeUp.await, Effect.sleep(POLL_INTERVAL))
    }
  })

  yield* Effect.forkScoped(loop)

  const flush = Effect.gen(function* () {
    let claimed = 1
    while (claimed > 0) {
      yield* FiberSet.awaitEmpty(running)
      claimed = (yield* claimBatch).claimed
    }
    yield* FiberSet.awaitEmpty(running)
  })

  return { wake: Effect.asVoid(wakeUp.open), flush }
})
