/**
 * The principal cache's heartbeat: every BEAT_EVERY_MS the node notifies its own heartbeat on the
 * cache's channel, and its store answers only while one sent within MAX_SILENCE_MS has been heard
 * back (PrincipalCache.Silence). So a change committed on any node reaches every other node's
 * answers within MAX_SILENCE_MS at most, whatever its connections are busy with; usually within a
 * millisecond or two, as the notification arrives.
 */
import type { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as PrincipalCache from "./PrincipalCache.ts"

export const BEAT_EVERY_MS = 100
export const MAX_SILENCE_MS = 300

/** The store's bound, on the process's monotonic clock (not a request's, which tests may move). */
export const silence: PrincipalCache.Silence = { maxMs: MAX_SILENCE_MS, now: () => performance.now() }

/** A wait on a real timer: the layer may be built under a test clock, and the beat must not stop. */
const realSleep = (ms: number) =>
  Effect.callback<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), ms)
    timer.unref()
    return Effect.sync(() => clearTimeout(timer))
  })

/** Beats for as long as the scope lasts; a beat that fails (the database away) is just not heard. */
export const beat = (sql: PgClient.PgClient, store: PrincipalCache.Lookups) =>
  Effect.forkScoped(
    Effect.forever(
      Effect.andThen(
        realSleep(BEAT_EVERY_MS),
        Effect.ignore(Effect.suspend(() => sql.notify(PrincipalCache.CHANNEL, store.beat())))
      )
    )
  )
