import { describe, expect, it } from "@effect/vitest"
import { Clock, Context, DateTime, Deferred, Duration, Effect, Layer, Queue } from "effect"
import { TestClock } from "effect/testing"
import type * as DeliveryJob from "../src/DeliveryJob.ts"
import * as DeliveryQueue from "../src/DeliveryQueue.ts"
import * as DeliveryStore from "../src/DeliveryStore.ts"
import * as DevOutbox from "../src/DevOutbox.ts"
import * as DeliveryWorker from "../src/internal/DeliveryWorker.ts"
import * as Mailer from "../src/Mailer.ts"
import * as SmsSender from "../src/SmsSender.ts"
import * as CapturedLogs from "./support/CapturedLogs.ts"

const CODE = "482913"
const TEXT = `Veche: your code is ${CODE}`
const LINK = "https://veche.test/recover#token=tok-secret-77"

/** One call a fake provider received, and when (test clock, ms). */
type Attempt =
  | { readonly _tag: "Sms"; readonly message: SmsSender.VerificationMessage; readonly at: number }
  | { readonly _tag: "Mail"; readonly letter: Mailer.Letter; readonly at: number }

const delivered: SmsSender.Delivery = { channel: "sms", provider: "fake" }

/**
 * A queue on a memory store with fake providers that record every call; `sms(n)` / `mail(n)`
 * answer the n-th call (default: success). `shared`: the store stands in for one other nodes use
 * (the test plays them through `store`), so the worker polls it. The worker runs in the test's
 * scope; `claims` counts its looks at the store.
 */
const harness = Effect.fnUntraced(function* (answers: {
  readonly sms?: (n: number) => Effect.Effect<SmsSender.Delivery, SmsSender.SmsError>
  readonly mail?: (n: number) => Effect.Effect<void, Mailer.MailUnavailable>
  readonly capacity?: number
  readonly shared?: boolean
}) {
  const attempts = yield* Queue.unbounded<Attempt>()
  let smsCalls = 0
  let mailCalls = 0
  const sms = SmsSender.SmsSender.of({
    channel: "sms",
    send: (message) =>
      Effect.gen(function* () {
        yield* Queue.offer(attempts, { _tag: "Sms", message, at: yield* Clock.currentTimeMillis })
        return yield* (answers.sms ?? (() => Effect.succeed(delivered)))(++smsCalls)
      })
  })
  const mailer = Mailer.Mailer.of({
    send: (letter) =>
      Effect.gen(function* () {
        yield* Queue.offer(attempts, { _tag: "Mail", letter, at: yield* Clock.currentTimeMillis })
        return yield* (answers.mail ?? (() => Effect.void))(++mailCalls)
      })
  })
  const store = yield* DeliveryStore.DeliveryStore.make({ capacity: answers.capacity, shared: answers.shared })
  let claims = 0
  const counted = DeliveryStore.DeliveryStore.of({
    ...store,
    claim: (now, leaseUntil, limit) =>
      Effect.suspend(() => {
        claims++
        return store.claim(now, leaseUntil, limit)
      })
  })
  const context = yield* Layer.build(
    DeliveryQueue.DeliveryQueue.layer.pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(DeliveryStore.DeliveryStore, counted),
          Layer.succeed(SmsSender.SmsSender, sms),
          Layer.succeed(Mailer.Mailer, mailer)
        )
      )
    )
  )
  return { queue: Context.get(context, DeliveryQueue.DeliveryQueue), store, attempts, claims: () => claims }
})

const smsJob = (expiresIn: Duration.Input = Duration.minutes(10)) =>
  Effect.map(
    DateTime.now,
    (now): DeliveryJob.SmsJob => ({
      _tag: "Sms",
      message: { to: "+79161234567", kind: "recover", code: CODE, text: TEXT, ttl: Duration.minutes(10) },
      expiresAt: DateTime.addDuration(now, expiresIn)
    })
  )

const mailJob = (expiresIn: Duration.Input = Duration.hours(1)) =>
  Effect.map(
    DateTime.now,
    (now): DeliveryJob.MailJob => ({
      _tag: "Mail",
      letter: { to: "alice@example.org", subject: "Recover", text: `Open ${LINK}`, kind: "email_recover", link: LINK },
      expiresAt: DateTime.addDuration(now, expiresIn)
    })
  )

/** Every job still in the store (removing them: call it last). */
const remaining = (store: DeliveryStore.DeliveryStore["Service"]) =>
  Effect.flatMap(DateTime.now, (now) => store.dropExpired(DateTime.addDuration(now, Duration.days(365))))

const takeAt = (attempts: Queue.Queue<Attempt>) => Effect.map(Queue.take(attempts), (attempt) => attempt.at)

const noSecretIn = (lines: ReadonlyArray<string>) => {
  const all = lines.join("\n")
  for (const secret of [CODE, TEXT, LINK, "tok-secret-77"]) expect(all).not.toContain(secret)
}

describe("DeliveryQueue", () => {
  it.live("enqueue returns as soon as the job is stored, while the provider has not answered", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { queue, store, attempts } = yield* harness({ sms: () => Effect.as(Deferred.await(gate), delivered) })
      yield* queue
        .enqueue(yield* smsJob())
        .pipe(
          Effect.timeoutOrElse({ duration: "1 second", orElse: () => Effect.die("enqueue waited for the provider") })
        )
      // The provider has it and is still busy; only now is it allowed to answer.
      const attempt = yield* Queue.take(attempts)
      expect(attempt._tag === "Sms" && attempt.message.code).toBe(CODE)
      yield* Deferred.succeed(gate, undefined)
      yield* queue.flush
      expect(yield* remaining(store)).toEqual([])
    })
  )

  it.effect("a sent job is removed and never sent again", () =>
    Effect.gen(function* () {
      const { queue, store, attempts } = yield* harness({})
      yield* queue.enqueue(yield* smsJob())
      yield* queue.enqueue(yield* mailJob())
      const first = yield* Queue.take(attempts)
      const second = yield* Queue.take(attempts)
      expect([first._tag, second._tag].sort()).toEqual(["Mail", "Sms"])
      // The SMS goes out with the time its code has left (here: all of it).
      const sms = first._tag === "Sms" ? first : second._tag === "Sms" ? second : undefined
      expect(sms && Duration.toMillis(sms.message.ttl ?? Duration.zero)).toBe(Duration.toMillis(Duration.minutes(10)))
      // Past several leases: a job that was not removed would be claimed and sent again.
      yield* TestClock.adjust(Duration.times(DeliveryQueue.LEASE, 3))
      expect(yield* Queue.size(attempts)).toBe(0)
      expect(yield* remaining(store)).toEqual([])
    })
  )

  it.effect("a job enqueued while the worker waits for its next poll goes out at once", () =>
    Effect.gen(function* () {
      const { queue, attempts } = yield* harness({})
      // The worker has looked at the (empty) store and sleeps until its next poll, at 1 s.
      yield* TestClock.adjust(Duration.millis(100))
      yield* queue.enqueue(yield* smsJob())
      // The test clock stays put: only the wake-up can bring the job out. A real-time limit keeps a
      // missing wake-up from hanging the test.
      const at = yield* takeAt(attempts).pipe(
        Effect.timeoutOrElse({ duration: "2 seconds", orElse: () => Effect.die("the worker was not woken") }),
        TestClock.withLive
      )
      expect(at).toBe(100)
    })
  )

  it.effect("a transient failure is retried after 2 s, then 4 s, with the code's time left as ttl", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { queue, store, attempts } = yield* harness({
            sms: (n) =>
              n <= 2
                ? Effect.fail(new SmsSender.SmsUnavailable({ provider: "fake", reason: "HTTP 502" }))
                : Effect.succeed(delivered)
          })
          yield* queue.enqueue(yield* smsJob())
          expect(yield* takeAt(attempts)).toBe(0)

          yield* TestClock.adjust(Duration.millis(1_999))
          expect(yield* Queue.size(attempts)).toBe(0)
          yield* TestClock.adjust(Duration.sum(DeliveryQueue.POLL_INTERVAL, Duration.millis(1)))
          const second = yield* Queue.take(attempts)
          expect(second.at).toBeGreaterThanOrEqual(2_000)
          expect(second.at).toBeLessThanOrEqual(3_000)
          expect(second._tag === "Sms" && Duration.toMillis(second.message.ttl ?? Duration.zero)).toBe(
            600_000 - second.at
          )

          const now = yield* Clock.currentTimeMillis
          yield* TestClock.adjust(Duration.millis(second.at + 3_999 - now))
          expect(yield* Queue.size(attempts)).toBe(0)
          yield* TestClock.adjust(Duration.sum(DeliveryQueue.POLL_INTERVAL, Duration.millis(1)))
          const third = yield* takeAt(attempts)
          expect(third - second.at).toBeGreaterThanOrEqual(4_000)
          expect(third - second.at).toBeLessThanOrEqual(5_000)

          yield* queue.flush
          yield* TestClock.adjust(Duration.times(DeliveryQueue.LEASE, 2))
          expect(yield* Queue.size(attempts)).toBe(0)
          expect(yield* remaining(store)).toEqual([])
        })
      )
      expect(exit._tag).toBe("Success")
      expect(lines.filter((line) => line.includes("HTTP 502") && line.includes("next attempt in"))).toHaveLength(2)
      noSecretIn(lines)
    })
  )

  it.effect("a refusal for good (SmsRejected) drops the job after one attempt", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { queue, store, attempts } = yield* harness({
            sms: () => Effect.fail(new SmsSender.SmsRejected({ provider: "fake", reason: "invalid number" }))
          })
          yield* queue.enqueue(yield* smsJob())
          yield* Queue.take(attempts)
          yield* TestClock.adjust(Duration.minutes(10))
          expect(yield* Queue.size(attempts)).toBe(0)
          expect(yield* remaining(store)).toEqual([])
        })
      )
      expect(exit._tag).toBe("Success")
      expect(lines.some((line) => line.includes("refused for good (fake: invalid number)"))).toBe(true)
      noSecretIn(lines)
    })
  )

  it.effect("a letter the mail server refuses for now is retried; one it refuses for good is dropped", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { queue, store, attempts } = yield* harness({
            mail: (n) =>
              n === 1
                ? Effect.fail(
                    new Mailer.MailUnavailable({ provider: "smtp", reason: "421 try later", permanent: false })
                  )
                : Effect.fail(
                    new Mailer.MailUnavailable({ provider: "smtp", reason: "550 no such user", permanent: true })
                  )
          })
          yield* queue.enqueue(yield* mailJob())
          expect(yield* takeAt(attempts)).toBe(0)
          yield* TestClock.adjust(Duration.seconds(3))
          const second = yield* takeAt(attempts)
          expect(second).toBeGreaterThanOrEqual(2_000)
          yield* TestClock.adjust(Duration.minutes(10))
          expect(yield* Queue.size(attempts)).toBe(0)
          expect(yield* remaining(store)).toEqual([])
        })
      )
      expect(exit._tag).toBe("Success")
      expect(lines.some((line) => line.includes("550 no such user") && line.includes("dropped"))).toBe(true)
      noSecretIn(lines)
    })
  )

  it.effect("a job is never sent from its expiry on", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { queue, store, attempts } = yield* harness({
            sms: () => Effect.fail(new SmsSender.SmsUnavailable({ provider: "fake", reason: "down" }))
          })
          // Expires at 5 s: tried at 0 and at 2 s; the next try (2 s + 4 s) would be too late.
          yield* queue.enqueue(yield* smsJob(Duration.seconds(5)))
          expect(yield* takeAt(attempts)).toBe(0)
          yield* TestClock.adjust(Duration.seconds(3))
          expect(yield* takeAt(attempts)).toBeGreaterThanOrEqual(2_000)
          yield* TestClock.adjust(Duration.minutes(5))
          expect(yield* Queue.size(attempts)).toBe(0)

          // Already expired when it is queued: not even stored.
          yield* queue.enqueue(yield* smsJob(Duration.zero))
          yield* TestClock.adjust(Duration.minutes(5))
          expect(yield* Queue.size(attempts)).toBe(0)
          expect(yield* remaining(store)).toEqual([])
        })
      )
      expect(exit._tag).toBe("Success")
      expect(lines.some((line) => line.includes("expires before another attempt; dropped"))).toBe(true)
      expect(lines.some((line) => line.includes("expired before it was queued; dropped"))).toBe(true)
      noSecretIn(lines)
    })
  )

  it.effect("a job that expires while it waits in the store is swept out, unsent", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { store, attempts } = yield* harness({ shared: true })
          // The worker has looked at the store and waits for its next poll, at 1 s.
          yield* TestClock.adjust(Duration.millis(100))
          // Added by another node (no wake-up here), expiring before this node's next poll.
          const id = yield* store.add(yield* smsJob(Duration.millis(500)), yield* DateTime.now)
          yield* TestClock.adjust(DeliveryQueue.SWEEP_INTERVAL)
          expect(yield* Queue.size(attempts)).toBe(0)
          return id
        })
      )
      expect(exit._tag === "Success" && lines).toContain(
        `delivery job ${exit._tag === "Success" ? exit.value : ""} expired after 0 attempt(s); dropped`
      )
    })
  )

  it.effect("a job another node added is picked up by the next poll", () =>
    Effect.gen(function* () {
      const { store, attempts } = yield* harness({ shared: true })
      // The worker has looked at the store and waits for its next poll, at 1 s.
      yield* TestClock.adjust(Duration.millis(100))
      yield* store.add(yield* smsJob(), yield* DateTime.now)
      yield* TestClock.adjust(Duration.millis(899))
      expect(yield* Queue.size(attempts)).toBe(0)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* takeAt(attempts)).toBe(1_000)
    })
  )

  it.effect("a job claimed by a node that died is sent once its lease runs out", () =>
    Effect.gen(function* () {
      const { store, attempts } = yield* harness({ shared: true })
      // Past this node's first look at the store, so the other node gets the job first.
      yield* TestClock.adjust(Duration.millis(100))
      const now = yield* DateTime.now
      yield* store.add(yield* smsJob(), now)
      // The other node claims it, then dies without a word.
      expect(yield* store.claim(now, DateTime.addDuration(now, DeliveryQueue.LEASE), 10)).toHaveLength(1)
      yield* TestClock.adjust(Duration.subtract(DeliveryQueue.LEASE, Duration.millis(1)))
      expect(yield* Queue.size(attempts)).toBe(0)
      yield* TestClock.adjust(Duration.sum(DeliveryQueue.POLL_INTERVAL, Duration.millis(1)))
      const at = yield* takeAt(attempts)
      expect(at).toBeGreaterThanOrEqual(60_100)
      expect(at).toBeLessThanOrEqual(61_100)
    })
  )

  it.effect("alone with its store, an idle worker does not poll, yet sends a retry on time", () =>
    Effect.gen(function* () {
      const { queue, store, attempts, claims } = yield* harness({
        sms: (n) =>
          n === 1
            ? Effect.fail(new SmsSender.SmsUnavailable({ provider: "fake", reason: "down" }))
            : Effect.succeed(delivered)
      })
      yield* TestClock.adjust(Duration.hours(1))
      // One look when it started; a polling worker would have looked 3600 times.
      expect(claims()).toBeLessThanOrEqual(1)

      yield* queue.enqueue(yield* smsJob())
      const first = yield* takeAt(attempts)
      yield* TestClock.adjust(Duration.seconds(2))
      expect((yield* takeAt(attempts)) - first).toBe(2_000)
      yield* queue.flush
      const looked = claims()
      yield* TestClock.adjust(Duration.hours(1))
      // At most one more look, when the lease of the last claim would have run out.
      expect(claims() - looked).toBeLessThanOrEqual(1)
      expect(yield* Queue.size(attempts)).toBe(0)
      expect(yield* remaining(store)).toEqual([])
    })
  )

  it.effect("a provider that never answers counts as a transient failure after the send timeout", () =>
    Effect.gen(function* () {
      const { exit, lines } = yield* CapturedLogs.capture(
        Effect.gen(function* () {
          const { queue, store, attempts } = yield* harness({
            sms: (n) => (n === 1 ? Effect.never : Effect.succeed(delivered))
          })
          yield* queue.enqueue(yield* smsJob())
          expect(yield* takeAt(attempts)).toBe(0)
          yield* TestClock.adjust(DeliveryQueue.SEND_TIMEOUT)
          expect(yield* Queue.size(attempts)).toBe(0)
          yield* TestClock.adjust(Duration.seconds(3))
          const second = yield* takeAt(attempts)
          expect(second).toBeGreaterThanOrEqual(32_000)
          expect(second).toBeLessThan(Duration.toMillis(DeliveryQueue.LEASE))
          yield* queue.flush
          expect(yield* remaining(store)).toEqual([])
        })
      )
      expect(exit._tag).toBe("Success")
      expect(lines.some((line) => line.includes("no answer within"))).toBe(true)
    })
  )

  it.effect("sends at most a fixed number at once, and takes the next job as soon as a send ends", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const { queue, store, attempts } = yield* harness({ sms: () => Effect.as(Deferred.await(gate), delivered) })
      const total = DeliveryWorker.MAX_IN_FLIGHT + 24
      for (let n = 0; n < total; n++) yield* queue.enqueue(yield* smsJob())
      for (let n = 0; n < DeliveryWorker.MAX_IN_FLIGHT; n++) yield* Queue.take(attempts)
      yield* TestClock.adjust(DeliveryQueue.POLL_INTERVAL)
      expect(yield* Queue.size(attempts)).toBe(0)
      // No clock moves from here: only the ends of sends can bring the rest out.
      yield* Deferred.succeed(gate, undefined)
      for (let n = DeliveryWorker.MAX_IN_FLIGHT; n < total; n++) yield* Queue.take(attempts)
      yield* queue.flush
      expect(yield* remaining(store)).toEqual([])
    })
  )

  it.effect("enqueue fails with DeliveryUnavailable when the store is full", () =>
    Effect.gen(function* () {
      const { queue } = yield* harness({ sms: () => Effect.never, capacity: 1 })
      yield* queue.enqueue(yield* smsJob())
      const error = yield* queue.enqueue(yield* smsJob()).pipe(Effect.flip)
      expect(error._tag).toBe("DeliveryUnavailable")
    })
  )

  it.effect("what the dev SmsSender and Mailer send from the queue lands in the DevOutbox", () =>
    Effect.gen(function* () {
      const context = yield* Layer.build(
        DeliveryQueue.DeliveryQueue.layerMemory.pipe(
          Layer.provide(Layer.mergeAll(SmsSender.SmsSender.layerConsole, Mailer.Mailer.layerConsole)),
          Layer.provideMerge(DevOutbox.DevOutbox.layerMemory)
        )
      )
      const queue = Context.get(context, DeliveryQueue.DeliveryQueue)
      const outbox = Context.get(context, DevOutbox.DevOutbox)
      yield* queue.enqueue(yield* smsJob())
      yield* queue.enqueue(yield* mailJob())
      yield* queue.flush
      expect(yield* outbox.list("+79161234567")).toMatchObject([
        { channel: "console", kind: "recover", code: CODE, text: TEXT }
      ])
      expect(yield* outbox.list("alice@example.org")).toMatchObject([
        { channel: "email", kind: "email_recover", link: LINK }
      ])
    })
  )
})
