/**
 * How many argon2id hashes the hasher runs at once by default, in a module of its own (no effect
 * import): the reference server's entry reads what it needs of it before anything is loaded.
 */
import { availableParallelism } from "node:os"

/** libuv's pool when `UV_THREADPOOL_SIZE` is not set. */
export const LIBUV_DEFAULT = 4
/** libuv's bound on `UV_THREADPOOL_SIZE`: a larger value gets this many threads. */
export const THREAD_POOL_MAX = 1024

/**
 * Hash threads by default (HashThreads.ts): one a CPU. Each thread has its next hash queued before
 * it ends the current one, so one a CPU keeps them all busy, and no two hashes time-slice a core
 * (which made each dearer: 12.0–13.4 ms of CPU a verify with three on two CPUs, 9.7–10.6 with two).
 */
export const forTheCpus = (): number => availableParallelism()

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
 * For hashes on libuv's pool (`Argon2PasswordHasher.nativeBackend`): one more than the CPUs, but
 * never every thread of the pool. There a hash that ends leaves its thread idle until the main
 * thread has handed over the next, so one more than the CPUs kept them busy (180 against 170 logins
 * a second on 2 CPUs, 2026-11-27); and the pool is shared with `fs`, `dns.lookup`, zlib and image
 * processing, so a burst of logins must leave one thread to them: on libuv's own 4, at most 3.
 */
export const poolConcurrency = (env: Readonly<Record<string, string | undefined>> = process.env): number =>
  Math.max(1, Math.min(availableParallelism() + 1, threadPoolSize(env) - 1))
