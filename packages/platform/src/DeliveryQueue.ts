/**
 * The durable queue for verification SMS and letters. The accounts flows `enqueue` a job and answer
 * at once: the request never waits for a provider, so a slow or failing provider cannot slow an
 * answer down or make it differ (recovery answers known and unknown identities alike). Nothing is
 * lost: a job is in the `DeliveryStore` before `enqueue` returns, and stays there until it is sent,
 * refused for good, or expired (see `internal/DeliveryWorker.ts` for claims, leases and retries).
 *
 * The layer runs this node's worker in its scope. A job enqueued here wakes it at once; on a shared
 * store (PostgreSQL) jobs from other nodes, retries and run-out leases are found by polling every
 * second, and each job is claimed by one node at a time. Alone with its store (memory), the worker
 * sleeps until the next due job instead.
 */
import { Context, DateTime, Effect, Layer } from "effect"
import * as DeliveryJob from "./DeliveryJob.ts"
import { DeliveryStore, DeliveryUnavailable } from "./DeliveryStore.ts"
import * as DeliveryWorker from "./internal/DeliveryWorker.ts"
import type * as Mailer from "./Mailer.ts"
import type * as SmsSender from "./SmsSender.ts"

export type Job = DeliveryJob.Job
export type SmsJob = DeliveryJob.SmsJob
export type MailJob = DeliveryJob.MailJob
export { DeliveryUnavailable }

/** The worker's timings, for hosts and tests that reason about them. */
export const LEASE = DeliveryWorker.LEASE
export const SEND_TIMEOUT = DeliveryWorker.SEND_TIMEOUT
export const POLL_INTERVAL = DeliveryWorker.POLL_INTERVAL
export const SWEEP_INTERVAL = DeliveryWorker.SWEEP_INTERVAL
export const backoff = DeliveryWorker.backoff

export class DeliveryQueue extends Context.Service<
  DeliveryQueue,
  {
    /**
     * Stores the job for sending and returns as soon as it is stored, never waiting for a provider.
     * A job already expired is dropped (with a log line) instead. Fails only when the store is down
     * or full; then nothing was queued and the caller answers 503.
     */
    readonly enqueue: (job: Job) => Effect.Effect<void, DeliveryUnavailable>
    /**
     * Sends every job due now and waits until this node's sends have finished (successfully or
     * not): for tests that read the dev outbox right after a request, and for an orderly shutdown.
     */
    readonly flush: Effect.Effect<void>
  }
>()("@veche/platform/DeliveryQueue") {
  static readonly layer: Layer.Layer<DeliveryQueue, never, DeliveryStore | SmsSender.SmsSender | Mailer.Mailer> =
    Layer.effect(
      DeliveryQueue,
      Effect.gen(function* () {
        const store = yield* DeliveryStore
        const worker = yield* DeliveryWorker.start

        const enqueue = Effect.fn("DeliveryQueue.enqueue")(function* (job: Job) {
          const now = yield* DateTime.now
          if (DeliveryJob.isExpired(job, now)) {
            return yield* Effect.logWarning(`${DeliveryJob.describe(job)} had expired before it was queued; dropped`)
          }
          const id = yield* store.add(job, now)
          yield* worker.wake
          yield* Effect.logDebug(`delivery job ${id} (${DeliveryJob.describe(job)}) queued`)
        })

        return DeliveryQueue.of({ enqueue, flush: worker.flush })
      })
    )

  /** The queue on a memory store: for tests and throwaway hosts (nothing queued survives the process). */
  static readonly layerMemory: Layer.Layer<DeliveryQueue, never, SmsSender.SmsSender | Mailer.Mailer> =
    DeliveryQueue.layer.pipe(Layer.provide(DeliveryStore.layerMemory))
}
