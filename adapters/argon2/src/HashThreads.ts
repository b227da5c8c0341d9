/**
 * argon2id on threads of its own: a few worker threads, each running `@node-rs/argon2`'s synchronous
 * `verifySync` / `hashSync` one call after another from its own queue.
 *
 * Why not libuv's pool, where the library's async functions run: a hash that ends there leaves its
 * thread idle until the main thread, busy with other requests, has seen it end and handed over the
 * next one (a bound on the hashes at once has to pass through the event loop), so a host ran one
 * more hash than it had CPUs to keep them busy, and paid for it: hashes time-sliced on the same
 * cores cost more each. Here each thread has the next call queued before it ends the current one,
 * so one thread a CPU keeps every CPU busy with no hash waiting on another. Measured on 2 CPUs under
 * 50 logins at once (2026-11-27, a login written by hand, side by side): two threads answered 153–171
 * logins a second against 121–136 with three hashes on libuv's pool, in 6 of 6 rounds, each verify
 * taking 9.7–10.6 ms of CPU against 12.0–13.4. libuv's pool is left to `fs`, `dns.lookup`, zlib and
 * image processing.
 *
 * The threads start at the first call (each costs ≈10 MB of memory, the first ≈17 MB) and live until
 * `close`. A thread that dies fails its calls (the promise rejects) and is started again at the next.
 */
import { createRequire } from "node:module"
import { Worker } from "node:worker_threads"
import type { Argon2Params } from "./internal/PasswordPhc.ts"

/** The calls a thread takes, as `@node-rs/argon2`'s synchronous functions take them. */
type Request =
  | { readonly kind: "verify"; readonly phc: string; readonly password: Uint8Array }
  | { readonly kind: "hash"; readonly password: Uint8Array; readonly params: Argon2Params }

type Reply = { readonly id: number; readonly value: string | boolean } | { readonly id: number; readonly error: string }

/**
 * The thread's whole program (`eval`): no file to find beside the built or the source module. It
 * reads what it needs through `process.getBuiltinModule`, so it runs as a script or as a module
 * alike. The library is the one this module resolves, passed as `workerData`.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads")
const argon2 = process.getBuiltinModule("node:module").createRequire(workerData.library)(workerData.library)
parentPort.on("message", (call) => {
  try {
    const value = call.kind === "verify"
      ? argon2.verifySync(call.phc, call.password)
      : argon2.hashSync(call.password, call.params)
    parentPort.postMessage({ id: call.id, value })
  } catch (error) {
    parentPort.postMessage({ id: call.id, error: String(error && error.message ? error.message : error) })
  }
})
`

/** The thread's heap: it holds a few small messages at a time (the 19 MiB block is native memory). */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 }

interface Waiting {
  readonly resolve: (value: string | boolean) => void
  readonly reject: (error: Error) => void
}

interface Thread {
  readonly worker: Worker
  readonly waiting: Map<number, Waiting>
  /** Being stopped by `close`: it stays referenced until it has exited. */
  closing: boolean
}

export interface HashThreads {
  readonly verify: (phc: string, password: Uint8Array) => Promise<boolean>
  readonly hash: (password: Uint8Array, params: Argon2Params) => Promise<string>
  /**
   * Calls a caller should keep handed over at once: one running and one queued a thread, so that
   * no thread waits for the main thread between two (`Argon2PasswordHasher` bounds its calls so).
   */
  readonly permits: number
  /** Calls handed to the threads and not yet answered. */
  readonly inFlight: () => number
  /** Calls handed to each thread and not yet answered, by slot (0 for a slot without a thread). */
  readonly load: () => ReadonlyArray<number>
  /** Threads running now (0 before the first call and after `close`). */
  readonly running: () => number
  /** Stops the threads; calls still waiting reject. A later call starts them again. */
  readonly close: () => Promise<void>
}

/** `threads` worker threads (a positive integer), started at the first call. */
export const make = (threads: number): HashThreads => {
  if (!Number.isInteger(threads) || threads < 1) {
    throw new Error(`HashThreads: threads must be a positive integer, got ${threads}`)
  }
  const library = createRequire(import.meta.url).resolve("@node-rs/argon2")
  const slots: Array<Thread | undefined> = Array.from({ length: threads }, () => undefined)
  let nextId = 0
  let inFlight = 0

  const failAll = (thread: Thread, error: Error) => {
    for (const waiting of thread.waiting.values()) waiting.reject(error)
    inFlight -= thread.waiting.size
    thread.waiting.clear()
  }

  const start = (slot: number): Thread => {
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { library },
      // None of the process's flags: a profiler's, a module type's or the young generation's are
      // the main thread's business.
      execArgv: [],
      resourceLimits: RESOURCE_LIMITS
    })
    const thread: Thread = { worker, waiting: new Map(), closing: false }
    worker.on("message", (reply: Reply) => {
      const waiting = thread.waiting.get(reply.id)
      if (waiting === undefined) return
      thread.waiting.delete(reply.id)
      inFlight--
      // Not once `close` stops it: an answer can come before its exit, and an unreferenced thread
      // would let the process end with `close`'s promise never settled.
      if (thread.waiting.size === 0 && !thread.closing) worker.unref()
      if ("error" in reply) waiting.reject(new Error(`argon2: ${reply.error}`))
      else waiting.resolve(reply.value)
    })
    const gone = (error: Error) => {
      if (slots[slot] === thread) slots[slot] = undefined
      failAll(thread, error)
    }
    worker.on("error", gone)
    worker.on("exit", (code) => gone(new Error(`argon2: a hash thread exited (code ${code})`)))
    // An idle thread must not keep the process alive, a busy one must (`call`). After the listeners:
    // adding one refs the thread again.
    worker.unref()
    slots[slot] = thread
    return thread
  }

  // The thread with the fewest calls waiting; a slot without one gets a thread started.
  const pick = (): Thread => {
    let best: Thread | undefined
    for (let slot = 0; slot < slots.length; slot++) {
      const thread = slots[slot] ?? start(slot)
      if (best === undefined || thread.waiting.size < best.waiting.size) best = thread
    }
    return best as Thread
  }

  const call = <A extends string | boolean>(request: Request): Promise<A> =>
    new Promise<A>((resolve, reject) => {
      const thread = pick()
      const id = nextId++
      thread.waiting.set(id, { resolve: resolve as (value: string | boolean) => void, reject })
      inFlight++
      thread.worker.ref()
      thread.worker.postMessage({ ...request, id })
    })

  return {
    verify: (phc, password) => call<boolean>({ kind: "verify", phc, password }),
    hash: (password, params) =>
      call<string>({
        kind: "hash",
        password,
        params: { memoryCost: params.memoryCost, timeCost: params.timeCost, parallelism: params.parallelism }
      }),
    permits: threads * 2,
    inFlight: () => inFlight,
    load: () => slots.map((thread) => thread?.waiting.size ?? 0),
    running: () => slots.filter((thread) => thread !== undefined).length,
    close: async () => {
      const running = slots.filter((thread): thread is Thread => thread !== undefined)
      slots.fill(undefined)
      for (const thread of running) {
        thread.closing = true
        thread.worker.ref()
      }
      await Promise.all(running.map((thread) => thread.worker.terminate()))
    }
  }
}
