/**
 * How many argon2id hashes the hasher runs at once by default, in a module of its own (no effect
 * import): the reference server reads it to size libuv's threadpool before anything is loaded.
 */
import { availableParallelism } from "node:os"

/** libuv's pool when `UV_THREADPOOL_SIZE` is not set. */
const LIBUV_DEFAULT = 4
/** libuv's bound on `UV_THREADPOOL_SIZE`: a larger value gets this many threads. */
export const THREAD_POOL_MAX = 1024

/**
 * One more than the CPUs: what keeps them busy. With exactly one a CPU, each CPU sat idle from the end
 * of a verify until the main thread, busy with other requests, had handed it the next (a permit
 * passes through the event loop). Side by side on 2 CPUs under 50 logins at once (2026-11-27), 3 at
 * once answered more logins a second than 2: 180 against 170, in 6 of 6 repetitions, the main thread
 * spending ≈9 % less a login as it found more completions a turn; and again with the reference
 * server's pool sized for it, 173 against 169, in 5 of 6. Each hash in flight holds its 19 MiB
 * working set.
 */
export const forTheCpus = (): number => availableParallelism() + 1

/**
 * The threads of libuv's pool as this process's environment sizes it (libuv reads
 * `UV_THREADPOOL_SIZE` once, when the pool starts): 4 unless set, at most 1024.
 */
export const threadPoolSize = (env: Readonly<Record<string, string | undefined>> = process.env): number => {
  const set = Number.parseInt(env.UV_THREADPOOL_SIZE ?? "", 10)
  if (Number.isNaN(set)) return LIBUV_DEFAULT
  return Math.min(THREAD_POOL_MAX, Math.max(1, set))
}

/**
 * The default: `forTheCpus()`, but never every thread of libuv's pool. The hashes share that pool
 * with `fs`, `dns.lookup`, zlib and image processing, so a burst of logins must leave one thread to
 * them. A host that sizes the pool (the reference server does, `ThreadPool.ts`) gets `forTheCpus()`;
 * one on libuv's 4 threads gets at most 3.
 */
export const defaultConcurrency = (env: Readonly<Record<string, string | undefined>> = process.env): number =>
  Math.max(1, Math.min(forTheCpus(), threadPoolSize(env) - 1))
