/**
 * The size of libuv's threadpool for the reference server, when the operator has not set
 * `UV_THREADPOOL_SIZE`. Image processing runs on that pool beside `fs`, `dns.lookup` and zlib
 * (argon2id's hashes run on threads of their own, `@veche/argon2`'s HashThreads), and libuv gives it
 * 4 threads, which a burst of uploads on a large machine would fill. The pool gets a thread for each
 * image allowed at once and two more, and never fewer than libuv's 4. libuv reads the variable when
 * the pool first starts, so bin.ts sets it before anything is loaded; this module imports no
 * library for that reason. A host of one's own can call `configure` first thing in its entry module
 * too (`@veche/node-server/ThreadPool`).
 */
import { readdirSync, readFileSync } from "node:fs"
import { availableParallelism } from "node:os"
import { LIBUV_DEFAULT, THREAD_POOL_MAX } from "@veche/argon2/Concurrency"

/** Threads beyond the images, for fs, dns.lookup and zlib. */
const SPARE = 2

/**
 * A positive integer setting, or the default when it is unset or not one (the images' layer takes
 * at least 1): the pool errs on the large side.
 */
const positive = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value)
  return value !== undefined && Number.isInteger(parsed) && parsed >= 1 ? parsed : fallback
}

/**
 * The pool's size from the server's environment: `SERVICE_MEDIA_CONCURRENCY` (default: the CPUs, as
 * ProfileImages') plus two, at least libuv's 4 and at most its 1024.
 */
export const size = (env: Readonly<Record<string, string | undefined>>): number => {
  const images = positive(env.SERVICE_MEDIA_CONCURRENCY, availableParallelism())
  return Math.min(THREAD_POOL_MAX, Math.max(LIBUV_DEFAULT, images + SPARE))
}

/**
 * Sets `UV_THREADPOOL_SIZE` to `size` unless the operator has set it; call before anything uses the
 * pool.
 */
export const configure = (env: Record<string, string | undefined> = process.env): void => {
  if ((env.UV_THREADPOOL_SIZE ?? "").trim() === "") env.UV_THREADPOOL_SIZE = String(size(env))
}

/**
 * How many threads of libuv's pool process `pid` runs, from their names in `/proc` (Linux; Node
 * 24's libuv names them `libuv-worker`, older ones do not, and then it reads 0). For tests and the
 * bench: the pool starts when first used, and its threads inherit the CPUs of the thread starting it.
 */
export const workersOf = (pid: number): number => threadsNamed(pid, "libuv-worker")

/** How many threads of process `pid` are named `name` in `/proc` (Linux; e.g. Node 24's `WorkerThread`). */
export const threadsNamed = (pid: number, name: string): number =>
  readdirSync(`/proc/${pid}/task`).filter((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim() === name
    } catch {
      return false // the thread ended meanwhile
    }
  }).length
