/**
 * `Spans.fn("Guilds.create")(function* (...) { ... })`: a domain operation, with a span of that
 * name whenever a tracer is on, as `Effect.fn("Guilds.create")` would make.
 *
 * Why not `Effect.fn`: it builds a call-site `Error` on every call, tracer on or off, and opens a
 * span even with tracing off (a no-op one). That is 3.6–5.6 µs a call in isolation on the bench VM
 * and ≈11 µs inside a request's deeper stack (docs/traps.md), against ≈2 µs here with the tracer
 * off (half of it the stack frame below): 5–13 µs of a routed request that costs 100–130 µs in
 * the test host. The reference server runs with the
 * tracer off (it exports no traces); a host that installs one gets the same spans, named, nested
 * and ended with their exits. Either way a failure inside carries the operation's stack frame (its
 * name and where it is defined, captured once), so a logged cause still reads
 * "at Guilds.create (…/Guilds.ts:…)"; what is given up is the caller's line beside it.
 *
 * Domain services (one such function at the top of each operation, the steps below it
 * `Effect.fnUntraced`) use this; provider adapters, whose calls wait on a network or on image work
 * anyway, keep `Effect.fn` and its caller's frame.
 */
import { Effect, References } from "effect"

/**
 * Where the operation is defined: the line that called `fn`, read from one `Error` made now (the
 * text is formatted on first use). None when stack traces are off, as `Effect.fn` does.
 */
const definitionSite = (): (() => string | undefined) => {
  const limit = Error.stackTraceLimit
  if (limit === 0) return () => undefined
  Error.stackTraceLimit = 3
  const error = new Error()
  Error.stackTraceLimit = limit
  let line: string | undefined
  // Line 0 is "Error", then this function, `fn`, and `fn`'s caller.
  return () => (line ??= error.stack?.split("\n")[3]?.trim())
}

/** Wraps an operation's effect: a span while tracing is on, its stack frame always. */
const operation = (name: string, stack: () => string | undefined) => {
  const withSpan = Effect.withSpan(name, undefined, { captureStackTrace: stack })
  const frame = (parent: References.StackFrame | undefined): References.StackFrame => ({ name, stack, parent })
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    // A pipeable may answer something other than an Effect; `Effect.fn` passes that through too.
    Effect.isEffect(self)
      ? Effect.flatMap(References.TracerEnabled, (enabled) =>
          enabled ? withSpan(self) : Effect.updateService(self, References.CurrentStackFrame, frame)
        )
      : self
}

/** `Effect.fnUntraced` (same forms: a body, `{ self }`, pipeables) plus the operation's span and frame. */
export const fn = (name: string): Effect.fn.Untraced => {
  const wrap = operation(name, definitionSite())
  const untraced = Effect.fnUntraced as (...args: ReadonlyArray<unknown>) => unknown
  // The builder's overloads cannot be spelled by a forwarding function; its arguments go through as given.
  return ((...args: ReadonlyArray<unknown>) => untraced(...args, wrap)) as unknown as Effect.fn.Untraced
}
