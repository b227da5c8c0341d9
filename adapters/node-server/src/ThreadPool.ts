/**
 * The size of libuv's threadpool for the reference server, when the operator has not set
 * `UV_THREADPOOL_SIZE`. argon2id's hashes and image processing run on that pool beside `fs`,
 * `dns.lookup` and zlib, and libuv gives it 4 threads: a burst of logins (one more hash at once than
 * the CPUs, by default) or of uploads filled it, and a file read or a name lookup waited behind them.
 * The pool gets a thread for each hash and each image allowed at once, and two more. libuv reads
 * the variable when the pool first starts, so bin.ts sets it before anything is loaded; this module
 * imports no library for that reason.
 */
import { availableParallelism } from "node:os"
import { defaultConcurrency as hashesAtOnce } from "@veche/argon2/Concurrency"

/** libuv's own bound on the pool. */
const MAX = 1024
/** Threads beyond the bounded users, for fs, dns.lookup and zlib. */
const SPARE = 2

/** A positive integer setting, or the default when it is unset or not one (the layers refuse it then). */
const positive = (value: string | undefined, fallback: number): number => {
  const parsed = Number(value)
  return value !== undefined && Number.isInteger(parsed) && parsed >= 1 ? parsed : fallback
}

/**
 * The pool's size from the server's environment: `SERVICE_PASSWORD_HASH_CONCURRENCY` (default:
 * `@veche/argon2`'s) plus `SERVICE_MEDIA_CONCURRENCY` (default: the CPUs, as ProfileImages') plus two.
 */
export const size = (env: Readonly<Record<string, string | undefined>>): number => {
  const hashes = positive(env.SERVICE_PASSWORD_HASH_CONCURRENCY, hashesAtOnce())
  const images = positive(env.SERVICE_MEDIA_CONCURRENCY, availableParallelism())
  return Math.min(MAX, hashes + images + SPARE)
}

/**
 * Sets `UV_THREADPOOL_SIZE` to `size` unless the operator has set it; call before anything uses the
 * pool.
 */
export const configure = (env: Record<string, string | undefined> = process.env): void => {
  if ((env.UV_THREADPOOL_SIZE ?? "").trim() === "") env.UV_THREADPOOL_SIZE = String(size(env))
}
