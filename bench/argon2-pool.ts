/**
 * `node bench/argon2-pool.ts`: the server's hasher (Argon2PasswordHasher.make, production
 * parameters, CONCURRENCY hash threads behind its semaphore) against the login floor's bare loop
 * (as many verifies in flight as connections, all queued on the libuv pool, whose size
 * UV_THREADPOOL_SIZE sets), alternating in one process: verifies per second and process CPU per
 * verify of each. Tells whether the bound leaves the cores idle between verifies or costs CPU per
 * verify, apart from everything else a login does.
 *
 *   CONCURRENCY (the hasher's threads; default the number of CPUs)  IN_FLIGHT (50)  SECONDS (5)  ROUNDS (3)
 */
import { createRequire } from "node:module"
import * as path from "node:path"
import { Argon2PasswordHasher } from "@veche/argon2"
import { Effect, Exit, Redacted, Scope } from "effect"

const argon2: Argon2PasswordHasher.Argon2Backend & {
  readonly hash: (password: Uint8Array, options: Argon2PasswordHasher.Argon2Params) => Promise<string>
} = createRequire(path.resolve(import.meta.dirname, "../adapters/argon2/package.json"))("@node-rs/argon2")

const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 50)
const SECONDS = Number(process.env.SECONDS ?? 5)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const concurrency = process.env.CONCURRENCY === undefined ? undefined : Number(process.env.CONCURRENCY)

const password = "bench-password-1"
const bytes = new TextEncoder().encode(password)
const phc = await argon2.hash(bytes, Argon2PasswordHasher.DEFAULT_PARAMS)
const scope = await Effect.runPromise(Scope.make())
const hasher = await Effect.runPromise(Argon2PasswordHasher.make({ concurrency }).pipe(Scope.provide(scope)))

const measure = async (loop: () => Promise<void>) => {
  let done = 0
  const deadline = performance.now() + SECONDS * 1000
  const cpu = process.cpuUsage()
  const began = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < deadline) {
        await loop()
        done++
      }
    })
  )
  const used = process.cpuUsage(cpu)
  return {
    rate: done / ((performance.now() - began) / 1000),
    cpuUs: (used.user + used.system) / done,
    sysUs: used.system / done
  }
}

const bare = () => argon2.verify(phc, bytes).then(() => undefined)
const secret = Redacted.make(password)
const bounded = () => Effect.runPromise(hasher.verify(phc, secret)).then(() => undefined)

for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? (["bare", "hasher"] as const) : (["hasher", "bare"] as const)
  for (const side of order) {
    const { rate, cpuUs, sysUs } = await measure(side === "bare" ? bare : bounded)
    process.stdout.write(
      `round ${round} ${side.padEnd(6)} ${rate.toFixed(1)} verifies/s, ${cpuUs.toFixed(0)} µs CPU per verify (system ${sysUs.toFixed(0)})\n`
    )
  }
}

await Effect.runPromise(Scope.close(scope, Exit.void))
