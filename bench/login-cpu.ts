/**
 * `node bench/login-cpu.ts`: the main thread's CPU per `POST /auth/login` (right password), in
 * process and on PostgreSQL (DATABASE_URL), apart from argon2id: the test host's routes over the
 * PostgreSQL repositories with its test hasher (cheap parameters; its verify runs on the libuv
 * pool like the real one). The test host digests tokens with WebCrypto, which goes through the
 * pool too (the reference server hashes them in place with node:crypto), and has no access log. `process.threadCpuUsage()` counts this thread only, so neither the hash, the database's
 * own processes nor the rest of a busy machine count: the figure to compare before → after (issue
 * 22: the server's CPU per login minus the floor's per verify is what keeps login from the floor).
 *
 *   LOGINS (2000) ACCOUNTS (20: as many logins in flight, each account from its own address)
 *   PROFILE (a file name: a CPU profile of the measured rounds only, not of start-up, registration
 *   or warm-up; PROFILE_INTERVAL µs between samples, 100)
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import * as PgRepositories from "../adapters/postgres/src/PgRepositories.ts"
import * as PgTestSchema from "../adapters/postgres/src/PgTestSchema.ts"

const LOGINS = Number(process.env.LOGINS ?? 2000)
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 20)
const PROFILE = process.env.PROFILE
const PROFILE_INTERVAL = Number(process.env.PROFILE_INTERVAL ?? 100)
const PASSWORD = "bench-password-1"
const url = process.env.DATABASE_URL
if (url === undefined || url === "") throw new Error("login-cpu: DATABASE_URL is required")

const host = TestHost.layer({
  rateLimits: { enabled: false },
  repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url))), Layer.orDie)
})

const main = Effect.gen(function* () {
  const { fetchPromise } = yield* TestHost.TestHost
  const post = async (path: string, body: unknown, from: string) => {
    const response = await fetchPromise(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": from },
      body: JSON.stringify(body)
    })
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as Record<string, unknown>
  }
  const addressOf = (index: number) => `198.51.100.${index + 1}`
  const phoneOf = (index: number) => `+7916555${String(index).padStart(4, "0")}`

  yield* Effect.promise(async () => {
    for (let index = 0; index < ACCOUNTS; index++) {
      const phone = phoneOf(index)
      const started = await post("/api/v10/auth/register/phone", { phone, captcha_token: "dev" }, addressOf(index))
      const outbox = (await (
        await fetchPromise(`/api/v10/dev/outbox?to=${encodeURIComponent(phone)}`, {
          headers: { "x-forwarded-for": addressOf(index) }
        })
      ).json()) as { messages: Array<{ code: string }> }
      await post(
        "/api/v10/auth/register/verify",
        {
          verification_id: started.verification_id,
          code: outbox.messages.at(-1)?.code,
          username: `login_cpu_${index}`,
          password: PASSWORD,
          date_of_birth: "1995-01-01",
          consent: true
        },
        addressOf(index)
      )
    }
  })

  const run = async (logins: number) => {
    let left = logins
    const loop = async (index: number) => {
      while (left-- > 0) {
        await post(
          "/api/v10/auth/login",
          { login: phoneOf(index), password: PASSWORD, captcha_token: "dev" },
          addressOf(index)
        )
      }
    }
    await Promise.all(Array.from({ length: ACCOUNTS }, (_, index) => loop(index)))
  }

  yield* Effect.promise(async () => {
    await run(Math.min(500, LOGINS))
    const profiler = PROFILE === undefined ? undefined : new Session()
    if (profiler !== undefined) {
      profiler.connect()
      await profiler.post("Profiler.enable")
      await profiler.post("Profiler.setSamplingInterval", { interval: PROFILE_INTERVAL })
      await profiler.post("Profiler.start")
    }
    for (let round = 1; round <= 3; round++) {
      const before = process.threadCpuUsage()
      const began = performance.now()
      await run(LOGINS)
      const used = process.threadCpuUsage(before)
      const perLogin = (used.user + used.system) / LOGINS
      const rate = LOGINS / ((performance.now() - began) / 1000)
      process.stdout.write(
        `round ${round}: main thread ${perLogin.toFixed(0)} µs CPU per login (${rate.toFixed(0)} logins/s in process)\n`
      )
    }
    if (profiler !== undefined && PROFILE !== undefined) {
      const { profile } = await profiler.post("Profiler.stop")
      writeFileSync(PROFILE, JSON.stringify(profile))
      profiler.disconnect()
    }
  })
})

await Effect.runPromise(Effect.scoped(Effect.provide(main, host)))
