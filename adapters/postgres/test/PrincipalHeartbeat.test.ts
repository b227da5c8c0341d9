/**
 * The principal cache's heartbeat beats while lookups ask the store and stops when they do not:
 * an idle node sends nothing, and the next lookup starts the beats again at once. Real timers (the
 * heartbeat runs on them), a notifier that records instead of PostgreSQL (PrincipalCache.test.ts
 * watches the real channel).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Store } from "../src/PrincipalCache.ts"
import * as PrincipalHeartbeat from "../src/PrincipalHeartbeat.ts"

const wait = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

describe("PrincipalHeartbeat", () => {
  it.live("beats while lookups come, stops after the quiet time, and beats at once at the next lookup", () =>
    Effect.gen(function* () {
      // answers while a beat sent within 50 ms was heard (the server's bound is 300 ms)
      const store = new Store<string>(10, { maxMs: 50, now: () => performance.now() })
      const sent: Array<string> = []
      const notifier: PrincipalHeartbeat.Notifier = {
        notify: (channel, payload) =>
          Effect.sync(() => {
            expect(channel).toBe(store.beatChannel)
            sent.push(payload)
            // heard back a moment later, as a quiet database would deliver it
            setTimeout(() => store.onNotification(payload), 0)
          })
      }
      yield* PrincipalHeartbeat.beat(notifier, store, { everyMs: 10, quietAfterMs: 60 })

      // lookups every few milliseconds: it keeps beating
      for (let i = 0; i < 15; i++) {
        store.get("d", false, 0)
        yield* wait(10)
      }
      const whileAsked = sent.length
      expect(whileAsked).toBeGreaterThanOrEqual(5)

      // no lookup: after the quiet time it stops (a beat or two may still be on its way)
      yield* wait(150)
      const stopped = sent.length
      expect(stopped - whileAsked).toBeLessThanOrEqual(9)
      yield* wait(150)
      expect(sent.length).toBe(stopped)

      // the next lookup starts it again without waiting for a timer
      store.keep(store.ticket(), "d", false, "1", "v", Number.MAX_SAFE_INTEGER)
      expect(store.get("d", false, 0)).toBeUndefined() // nothing heard for 300 ms: not from memory
      yield* wait(5)
      expect(sent.length).toBe(stopped + 1)
      expect(store.get("d", false, 0)).toBe("v") // its beat heard: answered again
    })
  )
})
