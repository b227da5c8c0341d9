/**
 * Account deletion on memory stores, fake domain parts and the test clock: the 14-day delay,
 * cancelling, the refusals, every part erased top down once due, a failing part retried (the
 * request stays pending until every part is erased), and a restart that loses nothing.
 */
import { describe, expect, it } from "@effect/vitest"
import { MfaErrors, PasswordCheck } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { Memberships, PersonalData } from "@veche/users"
import { DateTime, Duration, Effect, Exit, Layer, Option, Redacted, Ref } from "effect"
import { TestClock } from "effect/testing"
import { AccountDeletion } from "../src/AccountDeletion.ts"
import { DeletionsRepo } from "../src/DeletionsRepo.ts"
import { OwnsGuilds } from "../src/PrivacyErrors.ts"
import { makeRecorder, type Recorder, threeParts } from "./support/FakeParts.ts"

const PASSWORD = "correct horse"
const userId = Snowflake.Snowflake.make("1311000000000000001")

const passwords = Layer.succeed(
  PasswordCheck.PasswordCheck,
  PasswordCheck.PasswordCheck.of({
    verify: (_userId, password) =>
      Redacted.value(password) === PASSWORD ? Effect.void : Effect.fail(new MfaErrors.PasswordMismatch())
  })
)

/** What the service stands on: stores, the registry, memberships and the password check. */
const below = Layer.mergeAll(
  DeletionsRepo.layerMemory,
  PersonalData.PersonalData.layer,
  Memberships.MembershipsTable.layer,
  passwords
)

const deletion = (recorder: Recorder) => AccountDeletion.layer.pipe(Layer.provideMerge(threeParts(recorder)))

const ask = (password = PASSWORD) =>
  Effect.flatMap(Effect.service(AccountDeletion), (service) =>
    service.request({ userId, password: Redacted.make(password) })
  )

const status = Effect.flatMap(Effect.service(AccountDeletion), (service) => service.status(userId))
const stateOf = Effect.map(
  status,
  Option.map((found) => found.state)
)

describe("AccountDeletion", () => {
  it.effect("starts a 14-day delay; cancelling ends it; asking twice changes nothing", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        const service = yield* AccountDeletion
        expect(yield* service.status(userId)).toEqual(Option.none())
        const asked = yield* ask()
        expect(asked.state).toBe("pending")
        expect(DateTime.toEpochMillis(asked.deleteAt) - DateTime.toEpochMillis(asked.requestedAt)).toBe(
          Duration.toMillis(Duration.days(14))
        )
        yield* TestClock.adjust(Duration.hours(5))
        expect(yield* ask()).toEqual(asked)
        expect(Option.map(yield* service.cancel(userId), (d) => d.state)).toEqual(Option.some("cancelled"))
        // cancelling again answers the state as it is
        expect(Option.map(yield* service.cancel(userId), (d) => d.state)).toEqual(Option.some("cancelled"))
        yield* TestClock.adjust(Duration.days(15))
        expect(yield* stateOf).toEqual(Option.some("cancelled"))
        expect(yield* Ref.get(recorder.erased)).toEqual([])
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("is refused with a wrong password, and while the user owns servers with other members", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        expect(yield* Effect.flip(ask("wrong"))).toBeInstanceOf(MfaErrors.PasswordMismatch)
        const table = yield* Memberships.MembershipsTable
        yield* table.setOwnsGuildsWithOthers(userId, true)
        expect(yield* Effect.flip(ask())).toBeInstanceOf(OwnsGuilds)
        expect(yield* status).toEqual(Option.none())
        yield* table.setOwnsGuildsWithOthers(userId, false)
        expect((yield* ask()).state).toBe("pending")
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("once due, the worker erases every domain's part, top down, then completes the request", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        yield* ask()
        yield* TestClock.adjust(Duration.days(14).pipe(Duration.subtract(Duration.minutes(1))))
        expect(yield* Ref.get(recorder.erased)).toEqual([])
        expect(yield* stateOf).toEqual(Option.some("pending"))
        yield* TestClock.adjust(Duration.minutes(1))
        expect(yield* Ref.get(recorder.erased)).toEqual([`guilds:${userId}`, `auth:${userId}`, `users:${userId}`])
        expect(yield* stateOf).toEqual(Option.some("completed"))
        // done once: nothing is due any more
        expect(yield* (yield* AccountDeletion).carryOutDue).toBe(0)
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("a part that fails leaves the request pending, and it is carried out again in full", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        const service = yield* AccountDeletion
        const now = yield* DateTime.now
        yield* (yield* DeletionsRepo).request({ userId, state: "pending", requestedAt: now, deleteAt: now })
        yield* Ref.set(recorder.failing, { auth: 1 })
        // an operator's run fails with the part...
        expect(Exit.isFailure(yield* Effect.exit(service.carryOutDue))).toBe(true)
        expect(yield* Ref.get(recorder.erased)).toEqual([`guilds:${userId}`])
        expect(yield* stateOf).toEqual(Option.some("pending"))
        // ...and the next run erases every part again (each is idempotent) and completes
        expect(yield* service.carryOutDue).toBe(1)
        expect(yield* Ref.get(recorder.erased)).toEqual([
          `guilds:${userId}`,
          `guilds:${userId}`,
          `auth:${userId}`,
          `users:${userId}`
        ])
        expect(yield* stateOf).toEqual(Option.some("completed"))
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("a request whose part fails does not hold up the next one due", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      const other = Snowflake.Snowflake.make("1311000000000000002")
      yield* Effect.gen(function* () {
        const service = yield* AccountDeletion
        const repo = yield* DeletionsRepo
        const now = yield* DateTime.now
        yield* repo.request({ userId, state: "pending", requestedAt: now, deleteAt: now })
        yield* repo.request({ userId: other, state: "pending", requestedAt: now, deleteAt: now })
        yield* Ref.set(recorder.failing, { auth: 1 })
        // the round reports the failure, but the request after the failing one is carried out
        expect(Exit.isFailure(yield* Effect.exit(service.carryOutDue))).toBe(true)
        const states = yield* Effect.forEach([userId, other], (id) =>
          Effect.map(
            repo.find(id),
            Option.map((found) => found.state)
          )
        )
        expect(states).toEqual([Option.some("pending"), Option.some("completed")])
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("the worker outlives a failing part and retries it", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        yield* ask()
        yield* Ref.set(recorder.failing, { users: 1 })
        yield* TestClock.adjust(Duration.days(14))
        // the failed round is logged, and the worker waits before it goes round again (no spinning
        // while an outage lasts)
        expect(yield* stateOf).toEqual(Option.some("pending"))
        yield* TestClock.adjust(Duration.seconds(59))
        expect(yield* stateOf).toEqual(Option.some("pending"))
        yield* TestClock.adjust(Duration.seconds(1))
        expect(yield* stateOf).toEqual(Option.some("completed"))
        expect(yield* Ref.get(recorder.erased)).toEqual([
          `guilds:${userId}`,
          `auth:${userId}`,
          `guilds:${userId}`,
          `auth:${userId}`,
          `users:${userId}`
        ])
      }).pipe(Effect.provide(deletion(recorder).pipe(Layer.provideMerge(below))))
    })
  )

  it.effect("a restart loses nothing: the next node's worker carries out what was asked before", () =>
    Effect.gen(function* () {
      const recorder = yield* makeRecorder
      yield* Effect.gen(function* () {
        // the first node takes the request and stops
        yield* ask().pipe(Effect.provide(deletion(recorder)))
        yield* TestClock.adjust(Duration.days(15))
        expect(yield* Ref.get(recorder.erased)).toEqual([])
        // the next node's worker finds it due at start
        yield* TestClock.adjust(Duration.millis(1)).pipe(Effect.provide(deletion(recorder)))
        expect(yield* Ref.get(recorder.erased)).toEqual([`guilds:${userId}`, `auth:${userId}`, `users:${userId}`])
        expect(
          yield* Effect.map(
            (yield* DeletionsRepo).find(userId),
            Option.map((d) => d.state)
          )
        ).toEqual(Option.some("completed"))
      }).pipe(Effect.provide(below))
    })
  )
})
