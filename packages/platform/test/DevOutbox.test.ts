import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as DevOutbox from "../src/DevOutbox.ts"

describe("DevOutbox", () => {
  it.effect("records messages newest last, stamped from the clock, and filters by recipient", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 10, 22, 12, 0, 0))
      const outbox = yield* DevOutbox.DevOutbox
      yield* outbox.record({ to: "+79161234567", channel: "console", kind: "register", code: "111111", text: "1" })
      yield* TestClock.adjust("1 second")
      yield* outbox.record({
        to: "bob@example.org",
        channel: "email",
        kind: "email_verify",
        link: "l",
        token: "t",
        text: "2"
      })
      yield* outbox.record({ to: "+79161234567", channel: "console", kind: "recover", code: "222222", text: "3" })
      const all = yield* outbox.list()
      expect(all.map((m) => m.text)).toEqual(["1", "2", "3"])
      expect(all[0]?.at).toBe("2026-11-22T12:00:00.000Z")
      expect(all[1]?.at).toBe("2026-11-22T12:00:01.000Z")
      expect((yield* outbox.list("+79161234567")).map((m) => m.code)).toEqual(["111111", "222222"])
      expect(yield* outbox.list("nobody@example.org")).toEqual([])
      // Every record is exactly the wire shape `GET /dev/outbox` serves.
      for (const message of all) expect(Schema.is(DevOutbox.OutboxMessage)(message)).toBe(true)
    }).pipe(Effect.provide(DevOutbox.DevOutbox.layerMemory))
  )

  it.effect("keeps only the newest messages beyond its capacity", () =>
    Effect.gen(function* () {
      const outbox = yield* DevOutbox.DevOutbox.make({ capacity: 3 })
      for (const n of [1, 2, 3, 4, 5]) {
        yield* outbox.record({ to: "+79161234567", channel: "sms", kind: "register", code: String(n), text: String(n) })
      }
      expect((yield* outbox.list()).map((m) => m.code)).toEqual(["3", "4", "5"])
    })
  )
})
