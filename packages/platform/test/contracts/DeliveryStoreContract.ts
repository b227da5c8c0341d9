/**
 * The one behaviour suite every DeliveryStore adapter must pass. It runs against the memory adapter
 * on every test run and against PostgreSQL when DATABASE_URL is set (adapters/postgres/test).
 *
 * Time is the test clock in both runs and `now` is handed to the port explicitly. Claims are not
 * scoped to a test, so each test starts by clearing what earlier tests left behind: jobs here live
 * an hour at most, so a day ahead every one of them has expired. (The clock is never set far ahead:
 * on PostgreSQL the connection pool's timers run on it too, and waking them for years of test time
 * stalls the test.)
 */
import { expect, type Vitest } from "@effect/vitest"
import { DateTime, Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import type * as DeliveryJob from "../../src/DeliveryJob.ts"
import * as DeliveryStore from "../../src/DeliveryStore.ts"

const LEASE = Duration.seconds(60)

/** Clears what earlier tests left and hands back the store. */
const setup = Effect.gen(function* () {
  const store = yield* DeliveryStore.DeliveryStore
  yield* store.dropExpired(DateTime.addDuration(yield* DateTime.now, Duration.days(1)))
  return store
})

let counter = 0
const smsJob = (expiresIn: Duration.Input = Duration.minutes(10)) =>
  Effect.map(DateTime.now, (now): DeliveryJob.SmsJob => {
    const code = String(100_000 + (++counter % 900_000))
    return {
      _tag: "Sms",
      message: {
        to: "+79161234567",
        kind: "register",
        code,
        text: `Veche: your code is ${code}`,
        ttl: Duration.minutes(10)
      },
      expiresAt: DateTime.addDuration(now, expiresIn)
    }
  })

const claimNow = (store: DeliveryStore.DeliveryStore["Service"], limit = 100) =>
  Effect.flatMap(DateTime.now, (now) => store.claim(now, DateTime.addDuration(now, LEASE), limit))

/** `nextDue` as text (undefined for none), for comparing. */
const nextDueAt = (store: DeliveryStore.DeliveryStore["Service"]) =>
  Effect.flatMap(DateTime.now, (now) =>
    Effect.map(store.nextDue(now), (at) => Option.getOrUndefined(Option.map(at, DateTime.formatIso)))
  )

/** A job with its instant as text, for comparing jobs that went through a store. */
const plain = (job: DeliveryJob.Job) => ({ ...job, expiresAt: DateTime.formatIso(job.expiresAt) })

export const deliveryStoreContract = (it: Vitest.MethodsNonLive<DeliveryStore.DeliveryStore>) => {
  it.effect("gives a job back as it was added (an SMS without its ttl), due at once, on attempt 1", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const now = yield* DateTime.now
      const sms = yield* smsJob()
      const letter: DeliveryJob.MailJob = {
        _tag: "Mail",
        letter: {
          to: "alice@example.org",
          subject: "Confirm your e-mail",
          text: "Open https://veche.test/verify#token=abc",
          html: "<a href='https://veche.test/verify#token=abc'>confirm</a>",
          kind: "email_verify",
          link: "https://veche.test/verify#token=abc",
          token: "abc"
        },
        expiresAt: DateTime.addDuration(now, Duration.hours(1))
      }
      const bare: DeliveryJob.MailJob = {
        _tag: "Mail",
        letter: { to: "bob@example.org", subject: "Hello", text: "Plain", kind: "email_recover" },
        expiresAt: DateTime.addDuration(now, Duration.hours(1))
      }
      const ids = [yield* store.add(sms, now), yield* store.add(letter, now), yield* store.add(bare, now)]
      expect(new Set(ids).size).toBe(3)

      const claims = yield* claimNow(store)
      expect(claims.map((claim) => claim.id)).toEqual(ids)
      expect(claims.map((claim) => claim.attempt)).toEqual([1, 1, 1])
      const { ttl: _ttl, ...message } = sms.message
      expect(claims.map((claim) => plain(claim.job))).toEqual([plain({ ...sms, message }), plain(letter), plain(bare)])
      expect(claims[2]?.job._tag === "Mail" && Object.keys(claims[2].job.letter).sort()).toEqual([
        "kind",
        "subject",
        "text",
        "to"
      ])
    })
  )

  it.effect("hands out at most `limit` jobs, earliest due first", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const ids: Array<string> = []
      for (let n = 0; n < 3; n++) {
        ids.push(yield* store.add(yield* smsJob(), yield* DateTime.now))
        yield* TestClock.adjust(Duration.seconds(1))
      }
      expect(yield* claimNow(store, 0)).toEqual([])
      expect((yield* claimNow(store, 2)).map((claim) => claim.id)).toEqual(ids.slice(0, 2))
      expect((yield* claimNow(store, 2)).map((claim) => claim.id)).toEqual(ids.slice(2))
    })
  )

  it.effect("does not hand out a claimed job again before its lease ends", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const id = yield* store.add(yield* smsJob(), yield* DateTime.now)
      expect((yield* claimNow(store)).map((claim) => claim.id)).toEqual([id])
      expect(yield* claimNow(store)).toEqual([])
      yield* TestClock.adjust(Duration.subtract(LEASE, Duration.millis(1)))
      expect(yield* claimNow(store)).toEqual([])
      // The lease has run out (its holder died): the job is handed out again, as the next attempt.
      yield* TestClock.adjust(Duration.millis(1))
      const again = yield* claimNow(store)
      expect(again.map((claim) => [claim.id, claim.attempt])).toEqual([[id, 2]])
    })
  )

  it.effect("never hands one job to two concurrent claimers", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const now = yield* DateTime.now
      const ids = yield* Effect.forEach(Array.from({ length: 30 }), () =>
        Effect.flatMap(smsJob(), (job) => store.add(job, now))
      )
      const batches = yield* Effect.forEach(Array.from({ length: 6 }), () => claimNow(store, 10), {
        concurrency: "unbounded"
      })
      const claimed = batches.flat().map((claim) => claim.id)
      expect(new Set(claimed).size).toBe(claimed.length)
      // Whatever a claimer skipped (rows another had locked) is still there for the next claim.
      const rest = (yield* claimNow(store)).map((claim) => claim.id)
      expect([...claimed, ...rest].sort()).toEqual([...ids].sort())
      expect(yield* claimNow(store)).toEqual([])
    })
  )

  it.effect("lets exactly one of ten concurrent claimers have a single job", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const id = yield* store.add(yield* smsJob(), yield* DateTime.now)
      const batches = yield* Effect.forEach(Array.from({ length: 10 }), () => claimNow(store, 1), {
        concurrency: "unbounded"
      })
      expect(batches.flat().map((claim) => claim.id)).toEqual([id])
    })
  )

  it.effect("never hands out an expired job, leased before or not", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const now = yield* DateTime.now
      const soon = yield* store.add(yield* smsJob(Duration.seconds(30)), now)
      const leased = yield* store.add(yield* smsJob(Duration.seconds(90)), now)
      expect((yield* claimNow(store, 1)).map((claim) => claim.id)).toEqual([soon])
      expect((yield* claimNow(store, 1)).map((claim) => claim.id)).toEqual([leased])
      // `soon` was claimed and its lease outlives it; at its expiry instant it is already too late.
      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* claimNow(store)).toEqual([])
      // `leased` expires at 90 s; its lease ran out at 60 s.
      yield* TestClock.adjust(Duration.seconds(30))
      expect((yield* claimNow(store)).map((claim) => claim.id)).toEqual([leased])
      yield* TestClock.adjust(Duration.seconds(30))
      expect(yield* claimNow(store)).toEqual([])
      yield* TestClock.adjust(LEASE)
      expect(yield* claimNow(store)).toEqual([])
    })
  )

  it.effect("retryAt ends the lease and moves the job's due time", () =>
    Effect.gen(function* () {
      const store = yield* setup
      yield* store.add(yield* smsJob(), yield* DateTime.now)
      const [first] = yield* claimNow(store)
      expect(first?.attempt).toBe(1)
      if (first === undefined) return
      const at = DateTime.addDuration(yield* DateTime.now, Duration.seconds(10))
      expect(yield* store.retryAt(first, at)).toBe(true)
      expect(yield* claimNow(store)).toEqual([])
      yield* TestClock.adjust(Duration.millis(9_999))
      expect(yield* claimNow(store)).toEqual([])
      // Due again after 10 s, well before the 60 s lease would have run out.
      yield* TestClock.adjust(Duration.millis(1))
      const again = yield* claimNow(store)
      expect(again.map((claim) => [claim.id, claim.attempt])).toEqual([[first.id, 2]])
    })
  )

  it.effect("retryAt on a job whose lease ran out and was claimed again changes nothing", () =>
    Effect.gen(function* () {
      const store = yield* setup
      yield* store.add(yield* smsJob(), yield* DateTime.now)
      const [stale] = yield* claimNow(store)
      yield* TestClock.adjust(LEASE)
      const [current] = yield* claimNow(store)
      if (stale === undefined || current === undefined) return expect.fail("the job was not claimed twice")
      expect(current.attempt).toBe(2)
      expect(yield* store.retryAt(stale, yield* DateTime.now)).toBe(false)
      // The current holder's lease still stands.
      expect(yield* claimNow(store)).toEqual([])
      expect(yield* store.retryAt(current, yield* DateTime.now)).toBe(true)
      expect((yield* claimNow(store)).map((claim) => claim.attempt)).toEqual([3])
    })
  )

  it.effect("remove deletes a job, leased or not; an unknown id is no error", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const now = yield* DateTime.now
      const leased = yield* store.add(yield* smsJob(), now)
      const waiting = yield* store.add(yield* smsJob(), now)
      const [claim] = yield* claimNow(store, 1)
      expect(claim?.id).toBe(leased)
      yield* store.remove(leased)
      yield* store.remove(waiting)
      yield* store.remove("999999999")
      yield* store.remove("not-an-id")
      if (claim !== undefined) expect(yield* store.retryAt(claim, now)).toBe(false)
      yield* TestClock.adjust(LEASE)
      expect(yield* claimNow(store)).toEqual([])
    })
  )

  it.effect("dropExpired removes the expired jobs, leased or not, and names them", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const now = yield* DateTime.now
      const leased = yield* store.add(yield* smsJob(Duration.minutes(1)), now)
      const waiting = yield* store.add(yield* smsJob(Duration.minutes(1)), now)
      const live = yield* store.add(yield* smsJob(Duration.hours(1)), now)
      const [claim] = yield* claimNow(store, 1)
      expect(claim?.id).toBe(leased)
      expect(yield* store.dropExpired(yield* DateTime.now)).toEqual([])

      yield* TestClock.adjust(Duration.minutes(1))
      const dropped = yield* store.dropExpired(yield* DateTime.now)
      expect([...dropped].sort((a, b) => Number(a.id) - Number(b.id))).toEqual([
        { id: leased, attempts: 1 },
        { id: waiting, attempts: 0 }
      ])
      expect(yield* store.dropExpired(yield* DateTime.now)).toEqual([])
      expect((yield* claimNow(store)).map((claim) => claim.id)).toEqual([live])
    })
  )

  it.effect("nextDue names when the next job becomes claimable, as long as it has not expired", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const start = yield* DateTime.now
      const after = (seconds: number) => DateTime.formatIso(DateTime.addDuration(start, Duration.seconds(seconds)))
      expect(yield* nextDueAt(store)).toBeUndefined()

      const id = yield* store.add(yield* smsJob(), start)
      expect(yield* nextDueAt(store)).toBe(after(0))
      const [claim] = yield* claimNow(store)
      expect(claim?.id).toBe(id)
      // Leased: claimable again when the lease runs out.
      expect(yield* nextDueAt(store)).toBe(after(60))
      if (claim !== undefined) yield* store.retryAt(claim, DateTime.addDuration(start, Duration.seconds(10)))
      expect(yield* nextDueAt(store)).toBe(after(10))

      // Leased past its expiry: never claimable again, so it names no instant.
      yield* store.add(yield* smsJob(Duration.seconds(5)), start)
      expect((yield* claimNow(store)).map((claim) => claim.id)).not.toContain(id)
      expect(yield* nextDueAt(store)).toBe(after(10))

      // Once the instant has passed, it is still named: the job is claimable now.
      yield* TestClock.adjust(Duration.seconds(11))
      expect(yield* nextDueAt(store)).toBe(after(10))
      yield* store.remove(id)
      expect(yield* nextDueAt(store)).toBeUndefined()
    })
  )
}
