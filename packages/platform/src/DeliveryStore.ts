/**
 * The port to the durable store behind the delivery queue, and its in-memory adapter.
 *
 * A job is due from the moment it is added. A worker *claims* due jobs: a claim is a lease until a
 * given instant, during which no other claim hands the job out; if the worker dies, the lease runs
 * out and any node claims the job again. Each claim counts an attempt, and the attempt number names
 * the claim, so a worker whose lease ran out (and whose job another node now holds) cannot move
 * that job with `retryAt`. Expired jobs are never handed out.
 *
 * Operations that depend on time take `now` as a parameter rather than reading a clock, so that the
 * memory store (driven by TestClock) and PostgreSQL behave identically under the same contract suite.
 */
import { Context, DateTime, Effect, Layer, Option, Ref, Schema } from "effect"
import * as DeliveryJob from "./DeliveryJob.ts"

/** The store cannot take a job: it is down or full. Callers answer 503; nothing was queued. */
export class DeliveryUnavailable extends Schema.TaggedError<DeliveryUnavailable>()("DeliveryUnavailable", {
  reason: Schema.String
}) {}

export type JobId = string

/** A job handed to one worker until its lease ends; `attempt` is 1 on the first claim. */
export interface Claim {
  readonly id: JobId
  readonly attempt: number
  readonly job: DeliveryJob.Job
}

/** A job removed because it expired, with the attempts made at it. */
export interface Expired {
  readonly id: JobId
  readonly attempts: number
}

export class DeliveryStore extends Context.Service<
  DeliveryStore,
  {
    /**
     * Whether other processes add and claim jobs here too. Their jobs can only be found by polling;
     * a worker alone with its store instead sleeps until `nextDue` or until it is woken.
     */
    readonly shared: boolean
    /** Stores a job, due at once. */
    readonly add: (job: DeliveryJob.Job, now: DateTime.Utc) => Effect.Effect<JobId, DeliveryUnavailable>
    /**
     * Leases up to `limit` jobs that are due at `now`, not leased, and not expired, until
     * `leaseUntil`; earliest due first. Concurrent claims never hand out the same job.
     */
    readonly claim: (now: DateTime.Utc, leaseUntil: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<Claim>>
    /**
     * Ends the lease and makes the job due again at `at`, if this claim is still the job's latest;
     * answers whether it was (false: removed, or claimed again after this lease ran out).
     */
    readonly retryAt: (claim: Claim, at: DateTime.Utc) => Effect.Effect<boolean>
    /** Deletes the job: it was sent, or it never will be. Whoever holds it now. */
    readonly remove: (id: JobId) => Effect.Effect<void>
    /** Deletes every job expired at `now`, leased or not, and names them. */
    readonly dropExpired: (now: DateTime.Utc) => Effect.Effect<ReadonlyArray<Expired>>
    /**
     * The earliest instant at which a job becomes claimable (due and not leased) while it has not
     * expired; at or before `now` when one is claimable already; none when no job ever will be.
     */
    readonly nextDue: (now: DateTime.Utc) => Effect.Effect<Option.Option<DateTime.Utc>>
  }
>()("@veche/platform/DeliveryStore") {
  /**
   * A store in process memory, holding at most `capacity` jobs (then `add` fails). Jobs are kept
   * in their stored form and decoded on claim, exactly as a durable store gives them back.
   * Nothing survives the process: for tests and throwaway hosts only. `shared` makes it stand in
   * for a store other nodes use (tests that play those nodes by hand).
   */
  static readonly make = (options?: {
    readonly capacity?: number | undefined
    readonly shared?: boolean | undefined
  }): Effect.Effect<DeliveryStore["Service"]> =>
    Effect.gen(function* () {
      const capacity = Math.max(1, options?.capacity ?? DEFAULT_CAPACITY)
      const rows = yield* Ref.make(new Map<JobId, Row>())
      let nextId = 0

      // Each operation is a single Ref.modify: the read and the write are one step, like the
      // single statements of the SQL adapter.
      const add = Effect.fn("MemoryDeliveryStore.add")(function* (job: DeliveryJob.Job, now: DateTime.Utc) {
        const payload = yield* DeliveryJob.encode(job).pipe(Effect.orDie)
        const id = String(++nextId)
        const row: Row = { payload, expiresAt: job.expiresAt, attempts: 0, nextAttemptAt: now, leaseUntil: undefined }
        const added = yield* Ref.modify(rows, (map): [boolean, Map<JobId, Row>] =>
          map.size >= capacity ? [false, map] : [true, new Map(map).set(id, row)]
        )
        if (!added) return yield* new DeliveryUnavailable({ reason: `the memory store is full (${capacity} jobs)` })
        return id
      })

      const claim = Effect.fn("MemoryDeliveryStore.claim")(function* (
        now: DateTime.Utc,
        leaseUntil: DateTime.Utc,
        limit: number
      ) {
        const claimed = yield* Ref.modify(rows, (map): [Array<[JobId, Row]>, Map<JobId, Row>] => {
          const due = [...map.entries()]
            .filter(([, row]) => isClaimable(row, now))
            .sort(
              ([a, x], [b, y]) =>
                DateTime.toEpochMillis(x.nextAttemptAt) - DateTime.toEpochMillis(y.nextAttemptAt) ||
                Number(a) - Number(b)
            )
            .slice(0, Math.max(0, limit))
            .map(([id, row]): [JobId, Row] => [id, { ...row, attempts: row.attempts + 1, leaseUntil }])
          if (due.length === 0) return [due, map]
          const next = new Map(map)
          for (const [id, row] of due) next.set(id, row)
          return [due, next]
        })
        return yield* Effect.forEach(claimed, ([id, row]) =>
          DeliveryJob.decode(row.payload).pipe(
            Effect.orDie,
            Effect.map((job): Claim => ({ id, attempt: row.attempts, job }))
          )
        )
      })

      const retryAt = (claim: Claim, at: DateTime.Utc) =>
        Ref.modify(rows, (map): [boolean, Map<JobId, Row>] => {
          const row = map.get(claim.id)
          if (row === undefined || row.attempts !== claim.attempt) return [false, map]
          return [true, new Map(map).set(claim.id, { ...row, nextAttemptAt: at, leaseUntil: undefined })]
        })

      const remove = (id: JobId) =>
        Ref.update(rows, (map) => {
          if (!map.has(id)) return map
          const next = new Map(map)
          next.delete(id)
          return next
        })

      const dropExpired = (now: DateTime.Utc) =>
        Ref.modify(rows, (map): [ReadonlyArray<Expired>, Map<JobId, Row>] => {
          const expired = [...map.entries()].filter(([, row]) => !DateTime.isGreaterThan(row.expiresAt, now))
          if (expired.length === 0) return [[], map]
          const next = new Map(map)
          for (const [id] of expired) next.delete(id)
          return [expired.map(([id, row]) => ({ id, attempts: row.attempts })), next]
        })

      const nextDue = (now: DateTime.Utc) =>
        Ref.get(rows).pipe(
          Effect.map((map) => {
            let earliest: DateTime.Utc | undefined
            for (const row of map.values()) {
              const at = claimableFrom(row)
              if (DateTime.isGreaterThan(row.expiresAt, DateTime.max(at, now))) {
                earliest = earliest === undefined ? at : DateTime.min(earliest, at)
              }
            }
            return Option.fromUndefinedOr(earliest)
          })
        )

      return DeliveryStore.of({ shared: options?.shared ?? false, add, claim, retryAt, remove, dropExpired, nextDue })
    })

  /** A memory store holding up to `capacity` jobs (default `DEFAULT_CAPACITY`). */
  static readonly layer = (options?: {
    readonly capacity?: number | undefined
    readonly shared?: boolean | undefined
  }): Layer.Layer<DeliveryStore> => Layer.effect(DeliveryStore, DeliveryStore.make(options))

  static readonly layerMemory: Layer.Layer<DeliveryStore> = DeliveryStore.layer()

  /** A store that is down: every `add` fails (tests of the 503 a caller answers then). */
  static readonly layerDown: Layer.Layer<DeliveryStore> = Layer.succeed(
    DeliveryStore,
    DeliveryStore.of({
      shared: false,
      add: () => Effect.fail(new DeliveryUnavailable({ reason: "the store is down" })),
      claim: () => Effect.succeed([]),
      retryAt: () => Effect.succeed(false),
      remove: () => Effect.void,
      dropExpired: () => Effect.succeed([]),
      nextDue: () => Effect.succeed(Option.none())
    })
  )
}

/**
 * Far more jobs than a test or a dev server ever has waiting; a bound all the same, so a provider
 * that is down for long cannot make the process grow without end.
 */
export const DEFAULT_CAPACITY = 10_000

interface Row {
  readonly payload: string
  readonly expiresAt: DateTime.Utc
  readonly attempts: number
  readonly nextAttemptAt: DateTime.Utc
  readonly leaseUntil: DateTime.Utc | undefined
}

/** When the row is due and unleased (in the past when it is already). */
const claimableFrom = (row: Row): DateTime.Utc =>
  row.leaseUntil === undefined ? row.nextAttemptAt : DateTime.max(row.nextAttemptAt, row.leaseUntil)

const isClaimable = (row: Row, now: DateTime.Utc): boolean =>
  DateTime.isLessThanOrEqualTo(row.nextAttemptAt, now) &&
  (row.leaseUntil === undefined || DateTime.isLessThanOrEqualTo(row.leaseUntil, now)) &&
  DateTime.isGreaterThan(row.expiresAt, now)
