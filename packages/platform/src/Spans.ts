/**
 * `Spans.fn("Guilds.create")(function* (...) { ... })`: a domain operation, with a span of that
 * name whenever a tracer is on, as `Effect.fn("Guilds.create")` would make.
 *
 * Why not `Effect.fn`: it builds a call-site `Error` on every call, tracer on or off, and opens a
 * span even with tracing off (a no-op one). That is 3.5–5.5 µs a call in isolation on the bench VM
 * and ≈11 µs inside a request's deeper stack (docs/traps.md), against ≈0.6 µs here with the tracer
 * off: 2–6 % of a domain route that costs 100–200 µs. The reference server runs with the tracer off
 * (it exports no traces); a host that installs one gets the same spans, named, nested and ended
 * with their exits. What is given up: the span's stack frame names where the function was
 * defined, not each caller.
 *
 * Domain services (one such function at the top of each operation, the steps below it
 * `Effect.fnUntraced`) use this; provider adapters, whose calls wait on a network or on image work
 * anyway, keep `Effect.fn` and its caller's frame.
 */
import { Effect, References } from "effect"

/** Wraps a domain operation's effect in a span of its name while tracing is enabled. */
const spanWhileTracing = (name: string) => {
  const withSpan = Effect.withSpan(name)
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(References.TracerEnabled, (enabled) => (enabled ? withSpan(self) : self))
}

/** `Effect.fnUntraced` (same forms: a body, `{ self }`, pipeables) plus a span while tracing. */
export const fn = (name: string): Effect.fn.Untraced => {
  const span = spanWhileTracing(name)
  const untraced = Effect.fnUntraced as (...args: ReadonlyArray<unknown>) => unknown
  // The builder's overloads cannot be spelled by a forwarding function; its arguments go through as given.
  return ((...args: ReadonlyArray<unknown>) => untraced(...args, span)) as unknown as Effect.fn.Untraced
}
