/**
 * One full garbage collection once the server listens, so an idle server does not keep what its
 * start left behind.
 *
 * Why: starting allocates far more than it keeps (modules compiled, schemas and routes built, the
 * migrations checked), and V8 collects only when allocation asks it to, which an idle server never
 * does: its young generation stays grown and the start's garbage stays resident until the first
 * load. One collection takes 128 → 112 MB off the idle reference server (measured; README
 * "Benchmarks"), costs tens of milliseconds once, before the start line is logged, and changes
 * nothing under load (the heap grows back to what the load needs).
 *
 * Through an in-process inspector session (`HeapProfiler.collectGarbage`): the one way Node offers
 * to collect from inside without `--expose-gc`, which would hand a global `gc` to every module. The
 * session opens no port and is closed at once. A Node built without the inspector skips it.
 */
import { Effect } from "effect"

export const collect: Effect.Effect<void> = Effect.callback<void>((resume) => {
  const inspector = process.getBuiltinModule("node:inspector")
  if (inspector === undefined) return resume(Effect.void)
  const session = new inspector.Session()
  try {
    session.connect()
  } catch {
    return resume(Effect.void)
  }
  session.post("HeapProfiler.collectGarbage", () => {
    // Not from within the callback: a session disconnected there stops the event loop for good
    // (Node 24: no timer or I/O callback runs again; see docs/traps.md).
    setImmediate(() => {
      session.disconnect()
      resume(Effect.void)
    })
  })
})
