/**
 * The node's credential watch alone, over a store that answers from a table the test sets: who is
 * asked when (word for a user, `*`, a new watch, the interval), in batches, and who is told; a store
 * that cannot answer closes nobody.
 */
import { describe, expect, it } from "@effect/vitest"
import { CredentialChanges, Snowflake } from "@veche/platform"
import { Effect, Layer, Option, Scope } from "effect"
import { TestClock } from "effect/testing"
import * as CredentialWatch from "../src/CredentialWatch.ts"
import { GatewayConfig } from "../src/GatewayConfig.ts"
import { GatewayIdentity } from "../src/GatewayIdentity.ts"

/** Login session n's id (`s(n)`), and its user's. */
const s = (n: number) => String(1000 + n)
const user = (n: number) => Snowflake.Snowflake.make(String(175928847299117063n + BigInt(n)))

/** The store's state: the login sessions that hold, whether it answers, and every batch it was asked. */
interface Store {
  readonly holding: Set<string>
  down: boolean
  readonly asked: Array<ReadonlyArray<string>>
}

const identities = (store: Store) =>
  Layer.succeed(
    GatewayIdentity,
    GatewayIdentity.of({
      identify: () => Effect.succeed(Option.none()),
      holding: (asked) =>
        Effect.suspend(() => {
          store.asked.push(asked.map((one) => (one.credential.kind === "session" ? one.credential.sessionId : "")))
          return store.down
            ? Effect.die(new Error("the database is down"))
            : Effect.succeed(
                asked.map((one) => one.credential.kind === "session" && store.holding.has(one.credential.sessionId))
              )
        })
    })
  )

/** Word sent by hand, as PgCredentialChanges would pass it on. */
const wordSource = () => {
  const listeners = new Set<(changed: string) => void>()
  return {
    source: {
      subscribe: (onChange: (changed: string) => void) => {
        listeners.add(onChange)
        return () => listeners.delete(onChange)
      }
    },
    say: (changed: string) => {
      for (const listener of listeners) listener(changed)
    }
  }
}

const setUp = (store: Store, word: ReturnType<typeof wordSource>) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const watch = yield* CredentialWatch.make.pipe(
      Effect.provide(
        Layer.mergeAll(
          identities(store),
          GatewayConfig.layer({ resumeGatewayUrl: "ws://node/gateway", credentialCheckIntervalMs: 60_000 }),
          Layer.succeed(CredentialChanges.CredentialChanges, word.source)
        )
      ),
      Scope.provide(scope)
    )
    return watch
  })

/** Watches login session `sessionId` of `userId`, recording each time it is told. */
const watching = (watch: { readonly watch: (entry: CredentialWatch.Watched) => () => void }, n: number) => {
  const told: Array<string> = []
  const sessionId = s(n)
  const stop = watch.watch({
    userId: user(n),
    credential: { kind: "session", sessionId: Snowflake.Snowflake.make(sessionId) },
    revoked: () => told.push(sessionId)
  })
  return { told, stop, sessionId }
}

const sleepReal = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

/**
 * Waits (real time: the watch gathers word for GATHER_MS) until `done` holds, however loaded the
 * machine, then a little longer, so that a question asked once too often shows too.
 */
const settleUntil = (done: () => boolean) =>
  Effect.gen(function* () {
    for (let waited = 0; !done() && waited < 5000; waited += 10) yield* sleepReal(10)
    yield* sleepReal(CredentialWatch.GATHER_MS * 3)
  })

/** For what must not happen: time enough for the watch to have done it. */
const settle = sleepReal(CredentialWatch.GATHER_MS * 5)

describe("CredentialWatch", () => {
  it.effect("asks as a connection starts being watched, and tells it once when its login session is gone", () =>
    Effect.gen(function* () {
      const store: Store = { holding: new Set([s(1)]), down: false, asked: [] }
      const word = wordSource()
      const watch = yield* setUp(store, word)
      const one = watching(watch, 1)
      const two = watching(watch, 2)
      yield* settleUntil(() => two.told.length > 0 && store.asked.flat().length >= 2)
      // both asked (each as it started being watched); s2's session does not hold
      expect(store.asked.flat().sort()).toEqual([s(1), s(2)])
      expect(one.told).toEqual([])
      expect(two.told).toEqual([s(2)])
      // told ones are watched no more: word about them asks nothing
      store.asked.length = 0
      word.say(user(2))
      yield* settle
      expect(store.asked).toEqual([])
      expect(two.told).toEqual([s(2)])
    })
  )

  it.effect("word for a user asks about that user's sessions only; word repeated meanwhile is one question", () =>
    Effect.gen(function* () {
      const store: Store = { holding: new Set([s(1), s(2), s(3)]), down: false, asked: [] }
      const word = wordSource()
      const watch = yield* setUp(store, word)
      const one = watching(watch, 1)
      watching(watch, 2)
      yield* settleUntil(() => store.asked.flat().length >= 2)
      store.asked.length = 0
      // four pool connections hear the same change; a user with no session here is not asked about
      for (let i = 0; i < 4; i++) word.say(user(1))
      word.say(user(9))
      yield* settleUntil(() => store.asked.length > 0)
      expect(store.asked).toEqual([[s(1)]])
      store.holding.delete(s(1))
      word.say(user(1))
      yield* settleUntil(() => one.told.length > 0)
      expect(one.told).toEqual([s(1)])
      // `*`: everyone still watched
      store.asked.length = 0
      word.say(CredentialChanges.EVERYONE)
      yield* settleUntil(() => store.asked.length > 0)
      expect(store.asked).toEqual([[s(2)]])
    })
  )

  it.effect("asks about every session once an interval, in batches", () =>
    Effect.gen(function* () {
      const count = CredentialWatch.BATCH + 20
      const store: Store = { holding: new Set(), down: false, asked: [] }
      for (let n = 0; n < count; n++) store.holding.add(s(n))
      const watch = yield* setUp(store, wordSource())
      const all = Array.from({ length: count }, (_, n) => watching(watch, n))
      yield* settleUntil(() => store.asked.flat().length >= count)
      store.asked.length = 0
      store.holding.delete(s(7))
      yield* TestClock.adjust("59 seconds")
      yield* settle
      expect(store.asked).toEqual([])
      yield* TestClock.adjust("1 second")
      yield* settleUntil(() => store.asked.length >= 2)
      expect(store.asked.map((batch) => batch.length)).toEqual([CredentialWatch.BATCH, 20])
      expect(all.flatMap((one) => one.told)).toEqual([s(7)])
    })
  )

  it.effect("a credential many connections rest on is asked about once; a new one asks about itself only", () =>
    Effect.gen(function* () {
      const store: Store = { holding: new Set([s(1), s(2)]), down: false, asked: [] }
      const word = wordSource()
      const watch = yield* setUp(store, word)
      // three tabs of one login session, and a second login session of the same user
      const tabs = [watching(watch, 1), watching(watch, 1), watching(watch, 1)]
      yield* settleUntil(() => store.asked.length > 0)
      expect(store.asked).toEqual([[s(1)]])
      store.asked.length = 0
      const told: Array<string> = []
      watch.watch({
        userId: user(1),
        credential: { kind: "session", sessionId: Snowflake.Snowflake.make(s(2)) },
        revoked: () => told.push(s(2))
      })
      yield* settleUntil(() => store.asked.length > 0)
      expect(store.asked).toEqual([[s(2)]])
      // the login session ends: every tab is told, the other login session is not
      store.holding.delete(s(1))
      word.say(user(1))
      yield* settleUntil(() => tabs.every((tab) => tab.told.length > 0))
      expect(tabs.map((tab) => tab.told)).toEqual([[s(1)], [s(1)], [s(1)]])
      expect(told).toEqual([])
    })
  )

  it.effect("a store that cannot answer closes nobody, and is asked again soon", () =>
    Effect.gen(function* () {
      const store: Store = { holding: new Set(), down: true, asked: [] }
      const word = wordSource()
      const watch = yield* setUp(store, word)
      const one = watching(watch, 1)
      yield* settleUntil(() => store.asked.length > 0)
      expect(store.asked).toEqual([[s(1)]])
      expect(one.told).toEqual([])
      // asked again soon by itself, without word or the interval
      store.down = false
      yield* TestClock.adjust(CredentialWatch.RETRY_MS)
      yield* settleUntil(() => one.told.length > 0)
      expect(store.asked).toEqual([[s(1)], [s(1)]])
      expect(one.told).toEqual([s(1)])
    })
  )

  it.effect("a connection that stopped being watched before the answer is not told", () =>
    Effect.gen(function* () {
      const store: Store = { holding: new Set(), down: false, asked: [] }
      const watch = yield* setUp(store, wordSource())
      const one = watching(watch, 1)
      one.stop()
      yield* settle
      expect(one.told).toEqual([])
    })
  )
})
