/**
 * The principal cache's heartbeat: every BEAT_EVERY_MS the node notifies its own heartbeat on its
 * own channel (`Store.beatChannel`, which its connections listen to beside the cache's), and its
 * store answers only while one sent within MAX_SILENCE_MS has been heard back
 * (PrincipalCache.Silence). So a change committed on any node reaches every other node's answers
 * within MAX_SILENCE_MS at most, whatever its connections are busy with; usually within a
 * millisecond or two, as the notification arrives.
 *
 * It beats only while lookups ask the store: after QUIET_AFTER_MS without one it stops, and the next
 * lookup starts it again at once. A beat is not free: it wakes the node's listening connections and
 * its event loop ten times a second (every node's connections, while the beats went to the shared
 * channel). On an idle server that was most of what it did: ≈9 of its 14 ms of CPU a second, and ≈3 ms of
 * PostgreSQL's for every node that shares the database. The bound does not move: the lookup that
 * finds the store silent reads PostgreSQL, as every lookup would without the cache, and the store
 * answers again once that beat is heard.
 */
import type { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import type * as PrincipalCache from "./PrincipalCache.ts"

export const BEAT_EVERY_MS = 100
export const MAX_SILENCE_MS = 300
export const QUIET_AFTER_MS = 2000

/** The store's bound, on the process's monotonic clock (not a request's, which tests may move). */
export const silence: PrincipalCache.Silence = { maxMs: MAX_SILENCE_MS, now: () => performance.now() }

/** What a beat needs of the client: its `NOTIFY`. */
export type Notifier = Pick<PgClient.PgClient, "notify">

/** What the heartbeat needs of the store: its beats' payloads, and whether lookups still come. */
export type Beating = Pick<PrincipalCache.Store<unknown>, "beat" | "beatChannel" | "asks" | "whenAsked">

export interface Timing {
  readonly everyMs: number
  /** How long the beats go on after the last lookup. */
  readonly quietAfterMs: number
}

/** A wait on a real timer: the layer may be built under a test clock, and the beat must not stop. */
const realSleep = (ms: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    timer.unref()
    return Effect.sync(() => clearTimeout(timer))
  })

/**
 * Resumes at the store's next lookup, or at once if one came since it had seen `seen`. Woken from
 * the lookup's own call stack, it goes on in a microtask: the beat is not the request's work.
 */
const nextLookup = (store: Beating, seen: number) =>
  Effect.callback<void>((resume) => {
    if (store.asks !== seen) return resume(Effect.void)
    return Effect.sync(store.whenAsked(() => queueMicrotask(() => resume(Effect.void))))
  })

/**
 * Beats for as long as the scope lasts, while lookups come; a beat that fails (the database away) is
 * just not heard.
 */
export const beat = (
  sql: Notifier,
  store: Beating,
  timing: Timing = { everyMs: BEAT_EVERY_MS, quietAfterMs: QUIET_AFTER_MS }
) => {
  const send = Effect.ignore(Effect.suspend(() => sql.notify(store.beatChannel, store.beat())))
  const quietBeats = Math.max(1, Math.ceil(timing.quietAfterMs / timing.everyMs))
  return Effect.forkScoped(
    Effect.gen(function* () {
      let seen = store.asks
      let quiet = 0
      while (true) {
        yield* realSleep(timing.everyMs)
        if (store.asks !== seen) {
          seen = store.asks
          quiet = 0
        } else if (++quiet >= quietBeats) {
          yield* nextLookup(store, seen)
          seen = store.asks
          quiet = 0
        }
        yield* send
      }
    })
  )
}
