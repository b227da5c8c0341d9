import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Schema } from "effect"
import { TestClock } from "effect/testing"
import * as Snowflake from "../src/Snowflake.ts"

const at = Date.UTC(2026, 10, 22, 12, 0, 0)

describe("Snowflake", () => {
  it("matches the mirrored platform's documented example", () => {
    // The platform's docs decompose 175928847299117063 to 2016-04-30T11:18:25.796Z, worker 1, process 0, increment 7.
    const parts = Snowflake.decompose(Snowflake.Snowflake.make("175928847299117063"))
    expect(new Date(parts.timestampMs).toISOString()).toBe("2016-04-30T11:18:25.796Z")
    expect(parts.workerId).toBe(32) // worker 1 << 5 | process 0, read as our 10-bit worker id
    expect(parts.sequence).toBe(7)
  })

  it("decodes only decimal strings up to 2^63-1 (a PostgreSQL bigint)", () => {
    const is = Schema.is(Snowflake.Snowflake)
    expect(is("175928847299117063")).toBe(true)
    expect(is("9223372036854775807")).toBe(true)
    expect(is("9223372036854775808")).toBe(false)
    expect(is("18446744073709551615")).toBe(false)
    expect(is("18446744073709551616")).toBe(false)
    expect(is("abc")).toBe(false)
    expect(is("-1")).toBe(false)
    expect(is("")).toBe(false)
  })

  it.effect("mints 17-19 digit, strictly increasing ids carrying the time and worker id", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      const generator = yield* Snowflake.SnowflakeGenerator.make(513)
      const ids = yield* Effect.forEach(Array.from({ length: 10_000 }), () => generator.next)
      expect(new Set(ids).size).toBe(ids.length)
      for (let i = 1; i < ids.length; i++) expect(BigInt(ids[i] ?? 0) > BigInt(ids[i - 1] ?? 0)).toBe(true)
      for (const id of ids) expect(id).toMatch(/^\d{17,19}$/)
      const first = Snowflake.decompose(ids[0] ?? Snowflake.Snowflake.make("0"))
      expect(first).toEqual({ timestampMs: at, workerId: 513, sequence: 0 })
      // 10 000 ids in one frozen millisecond borrow the next ones rather than block or repeat.
      expect(Snowflake.createdAt(ids[9_999] ?? Snowflake.Snowflake.make("0")).getTime()).toBe(at + 2)
    })
  )

  it.effect("never goes backwards when the clock does", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      const generator = yield* Snowflake.SnowflakeGenerator.make(1)
      const before = yield* generator.next
      yield* TestClock.setTime(at - 60_000)
      const after = yield* generator.next
      expect(BigInt(after) > BigInt(before)).toBe(true)
    })
  )

  it.effect("gives two workers different ids in the same millisecond", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(at)
      const a = yield* Snowflake.SnowflakeGenerator.make(1)
      const b = yield* Snowflake.SnowflakeGenerator.make(2)
      expect(yield* a.next).not.toBe(yield* b.next)
    })
  )

  it.effect("reads the worker id from SERVICE_WORKER_ID and refuses one out of range", () =>
    Effect.gen(function* () {
      const withEnv = (env: Record<string, string>) =>
        Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
      const generator = yield* Effect.service(Snowflake.SnowflakeGenerator).pipe(
        Effect.provide(Snowflake.SnowflakeGenerator.layerConfig),
        withEnv({ SERVICE_WORKER_ID: "42" })
      )
      expect(generator.workerId).toBe(42)
      const refused = yield* Layer.build(Snowflake.SnowflakeGenerator.layerConfig).pipe(
        Effect.scoped,
        withEnv({ SERVICE_WORKER_ID: "1024" }),
        Effect.flip
      )
      expect(refused._tag).toBe("ConfigError")
    })
  )
})
