import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Option, Schema } from "effect"
import * as Spans from "../src/Spans.ts"
import { recording } from "./support/RecordingTracer.ts"

class Refused extends Schema.TaggedError<Refused>()("Refused", { why: Schema.String }) {}

const add = Spans.fn("Sums.add")(function* (a: number, b: number) {
  return yield* Effect.succeed(a + b)
})
const refuse = Spans.fn("Sums.refuse")(function* (why: string) {
  return yield* new Refused({ why })
})

describe("Spans.fn", () => {
  it.effect("with a tracer, makes the operation's span under the caller's, ended with its exit", () =>
    Effect.gen(function* () {
      const { spans, tracer } = recording()
      const traced = <A, E>(effect: Effect.Effect<A, E>) =>
        effect.pipe(Effect.withSpan("request"), Effect.withTracer(tracer), Effect.withTracerEnabled(true))
      expect(yield* traced(add(2, 3))).toBe(5)
      expect(yield* Effect.flip(traced(refuse("no")))).toStrictEqual(new Refused({ why: "no" }))

      expect(spans.map((span) => span.name)).toEqual(["request", "Sums.add", "request", "Sums.refuse"])
      const [outer, inner, , failed] = spans
      expect(Option.getOrUndefined(inner?.parent ?? Option.none())?.spanId).toBe(outer?.spanId)
      expect(inner?.status._tag).toBe("Ended")
      expect(failed?.status._tag === "Ended" && Exit.isFailure(failed.status.exit)).toBe(true)
    })
  )

  it.effect("with tracing off, makes no span at all, and answers the same", () =>
    Effect.gen(function* () {
      const { spans, tracer } = recording()
      const quiet = <A, E>(effect: Effect.Effect<A, E>) =>
        effect.pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(false))
      expect(yield* quiet(add(2, 3))).toBe(5)
      expect(yield* Effect.flip(quiet(refuse("no")))).toStrictEqual(new Refused({ why: "no" }))
      expect(spans).toEqual([])
      // Not even a no-op span (what `Effect.withSpan` opens with tracing off, at a cost): none is current inside.
      const inside = Spans.fn("Sums.inside")(function* () {
        return yield* Effect.option(Effect.currentSpan)
      })
      expect(yield* quiet(inside())).toStrictEqual(Option.none())
      expect(Option.isSome(yield* inside().pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(true)))).toBe(true)
    })
  )

  it.effect("wraps the pipeables in the span, and ends it interrupted when the call is", () =>
    Effect.gen(function* () {
      const { spans, tracer } = recording()
      const traced = <A, E>(effect: Effect.Effect<A, E>) =>
        effect.pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(true))
      const named = Spans.fn("Sums.named")(
        function* () {
          return yield* Effect.void
        },
        (effect) =>
          Effect.andThen(
            effect,
            Effect.map(Effect.currentSpan, (span) => span.name)
          )
      )
      expect(yield* traced(named())).toBe("Sums.named")

      const waiting = Spans.fn("Sums.waiting")(function* () {
        return yield* Effect.never
      })
      const fiber = yield* Effect.forkChild(traced(waiting()))
      yield* Effect.yieldNow
      yield* Fiber.interrupt(fiber)
      const ended = spans.find((span) => span.name === "Sums.waiting")
      expect(ended?.status._tag === "Ended" && Exit.hasInterrupts(ended.status.exit)).toBe(true)
    })
  )

  it.effect("a failure carries the operation's frame, named and placed where it is defined, tracing on or off", () =>
    Effect.gen(function* () {
      for (const enabled of [false, true]) {
        const exit = yield* Effect.exit(refuse("no").pipe(Effect.withTracerEnabled(enabled)))
        const text = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
        const frame = text.split("\n").find((line) => line.trim().startsWith("at Sums.refuse ("))
        expect(frame).toContain("Spans.test.ts:")
        expect(text).not.toContain("Spans.ts")
      }
    })
  )

  it.effect("keeps Effect.fnUntraced's forms: pipeables see the arguments, { self } binds this", () =>
    Effect.gen(function* () {
      const labelled = Spans.fn("Sums.labelled")(
        function* (a: number) {
          return yield* Effect.succeed(a * 2)
        },
        (effect, a) => Effect.map(effect, (doubled) => `${a} → ${doubled}`)
      )
      expect(yield* labelled(4)).toBe("4 → 8")

      class Counter {
        count = 0
        readonly increment = Spans.fn("Counter.increment")({ self: this }, function* (this: Counter, by: number) {
          this.count += by
          return yield* Effect.succeed(this.count)
        })
      }
      const counter = new Counter()
      yield* counter.increment(2)
      expect(yield* counter.increment(3)).toBe(5)
      expect(labelled.length).toBe(1)
    })
  )
})
