/**
 * How many argon2id hashes the hasher runs at once by default, in a module of its own (no effect
 * import): the reference server reads it to size libuv's threadpool before anything is loaded.
 */
import { availableParallelism } from "node:os"

/**
 * One more than the CPUs. With exactly one a CPU, each CPU sat idle from the end of a verify until
 * the main thread, busy with other requests, had handed it the next (a permit passes through the
 * event loop). Side by side on 2 CPUs under 50 logins at once (2026-11-27), 3 at once answered more
 * logins a second than 2: 180 against 170, in 6 of 6 repetitions, the main thread spending ≈9 % less
 * a login as it found more completions a turn; and again with the reference server's pool sized for
 * it, 173 against 169, in 5 of 6. Each hash in flight holds its 19 MiB working set.
 */
export const defaultConcurrency = (): number => availableParallelism() + 1
