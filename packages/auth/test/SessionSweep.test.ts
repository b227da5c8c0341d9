/**
 * The session sweep's worker on memory stores and the test clock: a round at start and then one
 * every `sweepEvery`, batches until a short one, and a failed round does not end the worker.
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { DateTime, Duration, Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { AccountBlocks } from "../src/AccountBlocks.ts"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import * as Sweep from "../src/SessionSweep.ts"
import { SessionSweep } from "../src/SessionSweep.ts"
import { SessionsConfig } from "../src/SessionsConfig.ts"
import { SessionsRepo, type Swept } from "../src/SessionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(13))

/** The memory store, with every sweep call recorded, and refusing while `down` is set. */
const recording = (calls: Ref.Ref<Array<Swept>>, down: Ref.Ref<boolean>) =>
  Layer.effect(
    SessionsRepo,
    Effect.gen(function* () {
      const inner = yield* SessionsRepo
      return SessionsRepo.of({
        ...inner,
        sweep: (cutoff, limit) =>
          Effect.gen(function* () {
            if (yield* Ref.get(down)) return yield* Effect.die("the database is down")
            const swept = yield* inner.sweep(cutoff, limit)
            yield* Ref.update(calls, (all) => [...all, swept])
            return swept
          })
      })
    })
  ).pipe(
    Layer.provide(SessionsRepo.layerMemory),
    Layer.provide(Layer.merge(AccountBlocks.layerNone, AccountsRepo.layerMemory)),
    Layer.provide(UserRecords.UserRecords.layer),
    Layer.provide(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
  )

/** `n` sessions revoked now, two tokens each. */
const revokedSessions = (n: number) =>
  Effect.gen(function* () {
    const repo = yield* SessionsRepo
    const now = yield* DateTime.now
    for (let i = 0; i < n; i++) {
      const id = yield* ids.next
      yield* repo.create(
        {
          id,
          userId: yield* ids.next,
          client: { userAgent: null, address: null, country: null },
          createdAt: now,
          lastUsedAt: now,
          expiresAt: DateTime.add(now, { days: 30 }),
          revokedAt: null,
          passwordChangedAt: null
        },
        { access: { digest: `a-${id}`, expiresAt: DateTime.add(now, { hours: 1 }) }, refresh: { digest: `r-${id}` } }
      )
      yield* repo.revoke(id, now)
    }
  })

describe("SessionSweep", () => {
  it.effect("sweeps at start and every sweepEvery, in batches; a failed round does not end the worker", () =>
    Effect.gen(function* () {
      const calls = yield* Ref.make<Array<Swept>>([])
      const down = yield* Ref.make(false)
      const taken = Ref.getAndSet(calls, [])
      yield* Effect.gen(function* () {
        yield* TestClock.adjust(Duration.millis(1))
        // the round at start found nothing
        expect(yield* taken).toEqual([{ sessions: 0, tokens: 0 }])

        // dead sessions wait for the next round, which takes them in batches until a short one...
        yield* revokedSessions(Sweep.BATCH + 3)
        yield* TestClock.adjust(Duration.seconds(59 * 60 + 30))
        // ...but not one dead for less than SETTLE (30 s here)
        yield* revokedSessions(1)
        expect(yield* taken).toEqual([])
        yield* TestClock.adjust(Duration.seconds(30))
        expect(yield* taken).toEqual([
          { sessions: Sweep.BATCH, tokens: 2 * Sweep.BATCH },
          { sessions: 3, tokens: 6 }
        ])
        yield* TestClock.adjust(Duration.hours(1))
        expect(yield* taken).toEqual([{ sessions: 1, tokens: 2 }])

        // a round that fails is logged; the worker goes on
        yield* Ref.set(down, true)
        yield* TestClock.adjust(Duration.hours(1))
        yield* Ref.set(down, false)
        yield* revokedSessions(2)
        yield* TestClock.adjust(Duration.hours(1))
        expect(yield* taken).toEqual([{ sessions: 2, tokens: 4 }])

        // an operator's round
        expect(yield* (yield* SessionSweep).sweep).toEqual({ sessions: 0, tokens: 0 })
      }).pipe(
        Effect.provide(
          SessionSweep.layer.pipe(
            Layer.provideMerge(recording(calls, down)),
            Layer.provide(SessionsConfig.layer({ sweepEvery: Duration.hours(1) }))
          )
        )
      )
    })
  )
})
