/**
 * The floor for `POST /api/v10/auth/login`: a bare argon2id verify loop, no HTTP and no database.
 * Same parameters as the server (Argon2PasswordHasher.DEFAULT_PARAMS: m=19456 KiB, t=2, p=1), as many
 * verifies in flight as the load generator has connections, for the same time, queued on a libuv
 * pool of one thread a CPU: the fastest bare loop found (on 2 CPUs, 2026-11-27: 181–200 verifies a
 * second against 148–165 on libuv's own 4 threads, where hashes time-slice the cores and each costs
 * 12–13 ms of CPU instead of 10; UV_THREADPOOL_SIZE set outside wins). It runs to its end
 * and prints one LoadResult as JSON (verifies/s, latency, and its CPU per verify, user + system of
 * the whole process over the loop, as the server's column counts it). Not to be tuned down: it is
 * what the reference server is measured against.
 *
 *   CONCURRENCY (50)  SECONDS (10)
 */
import { createRequire } from "node:module"
import { availableParallelism } from "node:os"
import * as path from "node:path"
import { Argon2PasswordHasher } from "@veche/argon2"
import * as Processes from "../lib/Processes.ts"
import { Samples } from "../lib/Samples.ts"

interface Argon2 {
  readonly hash: (password: Uint8Array, options: Argon2PasswordHasher.Argon2Params) => Promise<string>
  readonly verify: (hashed: string, password: Uint8Array) => Promise<boolean>
}

// A dependency of @veche/argon2, not of the root: resolved from there, so it is the server's copy.
const argon2: Argon2 = createRequire(path.resolve(import.meta.dirname, "../../adapters/argon2/package.json"))(
  "@node-rs/argon2"
)

// Before the pool's first use, which reads it.
process.env.UV_THREADPOOL_SIZE ??= String(availableParallelism())

const concurrency = Number(process.env.CONCURRENCY ?? 50)
const seconds = Number(process.env.SECONDS ?? 10)

// Encoded as the server encodes a typed password; the right one, as in the login scenario.
const password = new TextEncoder().encode("bench-password-1")
const phc = await argon2.hash(password, Argon2PasswordHasher.DEFAULT_PARAMS)

const samples = new Samples()
const cpuBefore = process.cpuUsage()
const threadsBefore = Processes.threadCpuMsByName("self")
const began = performance.now()
const deadline = began + seconds * 1000
const loop = async () => {
  while (performance.now() < deadline) {
    const done = samples.start()
    done(await argon2.verify(phc, password))
  }
}
await Promise.all(Array.from({ length: concurrency }, loop))
const elapsed = (performance.now() - began) / 1000
const cpu = process.cpuUsage(cpuBefore)
const result = samples.result(elapsed)
const verifies = result.rps * elapsed
const cpuUsPerRequest = verifies > 0 ? Number(((cpu.user + cpu.system) / verifies).toFixed(1)) : undefined
// Which threads spent it (µs a verify by thread name), for comparing with the server's (bench/ab.ts).
const threadsUs = Object.fromEntries(
  verifies > 0
    ? Processes.threadCpuUsPerRequest("self", threadsBefore, verifies).map(([name, us]) => [
        name,
        Number(us.toFixed(1))
      ])
    : []
)
process.stdout.write(`${JSON.stringify({ ...result, cpuUsPerRequest, threadsUs })}\n`)
