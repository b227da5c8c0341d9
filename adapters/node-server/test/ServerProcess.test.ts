/**
 * The reference server as an operator runs it: a separate Node process started from bin.ts, on the
 * embedded PostgreSQL default and on a real PostgreSQL, stopped by signal and started again.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DefaultDataDir } from "@veche/embedded-postgres"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import pkg from "../package.json" with { type: "json" }
import * as ThreadPool from "../src/ThreadPool.ts"
import { getJson, type Running, registerByPhone, start, stopAll, tempDataDir } from "./ServerHarness.ts"

afterEach(stopAll)

/**
 * How many threads of libuv's pool a process runs (Linux: their names in /proc), or undefined where
 * libuv does not name them (older than Node 24's).
 */
const poolThreadsOf = (pid: number | undefined): number | undefined => {
  const workers = ThreadPool.workersOf(pid ?? 0)
  return workers === 0 ? undefined : workers
}

const NEW_SPACE_PROBE = path.join(import.meta.dirname, "fixtures/new-space-probe.cjs")

/**
 * The young generation's committed bytes, as the probe preloaded into the server prints them on its
 * `nth` SIGUSR2 (from the second on, after keeping 24 MB alive).
 */
const newSpaceOf = async (server: Running, nth: number): Promise<number> => {
  server.child.kill("SIGUSR2")
  for (let waited = 0; waited < 5000; waited += 20) {
    for (const [, signal, bytes] of server.output().matchAll(/\[new-space (\d+)\] (-?\d+)/g))
      if (Number(signal) === nth) return Number(bytes)
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`the probe printed nothing:\n${server.output()}`)
}

const tempDirs: Array<string> = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

describe("reference server on the embedded PostgreSQL (no DATABASE_URL)", () => {
  const dataDir = tempDataDir()
  tempDirs.push(dataDir)
  const env = { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir }

  it("starts with nothing installed, answers, and stops with exit code 0 on SIGTERM", async () => {
    // libuv's pool sized before its first use: a thread for each image at once, and two; the hashes
    // get threads of their own, started by the first hash
    const server = await start({
      ...env,
      SERVICE_PASSWORD_HASH_CONCURRENCY: "5",
      SERVICE_MEDIA_CONCURRENCY: "3",
      NODE_OPTIONS: `--require "${NEW_SPACE_PROBE}"`
    })
    expect(await getJson(`${server.base}/api/v10/version`)).toEqual({
      status: 200,
      body: { version: pkg.version, api: 1, env: "dev" }
    })
    expect(await getJson(`${server.base}/api/v10/gateway`)).toEqual({
      status: 200,
      body: { url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/) }
    })
    expect(server.output()).toContain("database migrated")
    if (process.platform === "linux" && Number(process.versions.node.split(".")[0]) >= 24)
      expect(poolThreadsOf(server.child.pid)).toBe(3 + 2)
    // V8's young generation held through the start (YoungGeneration.ts): without it the start grows it
    // to the most this machine's Node allows, 16 MB and more (held, it reads 2–4 MB; V8 may still grow
    // it a step or two on a busy machine: YoungGeneration.test.ts)
    const idle = await newSpaceOf(server, 1)
    expect(idle).toBeLessThan(16 * 1024 * 1024)
    // and let grow once the server listens: 24 MB kept alive grows it (held, it would stay put)
    expect(await newSpaceOf(server, 2)).toBeGreaterThanOrEqual(Math.max(16 * 1024 * 1024, 2 * idle))
    if (process.platform === "linux" && Number(process.versions.node.split(".")[0]) >= 24) {
      const before = ThreadPool.threadsNamed(server.child.pid ?? 0, "WorkerThread")
      // registering hashes the password
      await registerByPhone(server.base, "+79057654321", "threads_person")
      // the password's hash started them (Node 24 names worker threads so): one a hash at once
      expect(ThreadPool.threadsNamed(server.child.pid ?? 0, "WorkerThread") - before).toBe(5)
    }
    expect(await server.stop()).toBe(0)
    expect(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true)
  }, 60_000)

  it("never leaves a request hanging while it starts", async () => {
    const probe = await import("node:net").then(
      (net) =>
        new Promise<number>((done) => {
          const socket = net.createServer().listen(0, "127.0.0.1", () => {
            const address = socket.address()
            socket.close(() => done(typeof address === "object" && address !== null ? address.port : 0))
          })
        })
    )
    const startedAt = Date.now()
    const serverPromise = start({ ...env, PORT: String(probe) })
    let answered = false
    while (!answered && Date.now() - startedAt < 30_000) {
      const outcome = await fetch(`http://127.0.0.1:${probe}/api/v10/version`, {
        signal: AbortSignal.timeout(3_000)
      }).then(
        (response) => response.status,
        (error: Error) => error.name
      )
      // Before the listener exists: refused at once. After: answered. Never: timed out.
      expect(outcome).not.toBe("TimeoutError")
      answered = outcome === 200
      if (!answered) await new Promise((done) => setTimeout(done, 5))
    }
    expect(answered).toBe(true)
    const server = await serverPromise
    expect(await server.stop()).toBe(0)
  }, 60_000)

  it("keeps the data folder across a restart (the schema is not migrated again)", async () => {
    const server = await start(env)
    expect((await getJson(`${server.base}/api/v1/version`)).status).toBe(200)
    expect(server.output()).not.toContain("database migrated")
    expect(await server.stop()).toBe(0)
  }, 60_000)

  it("starts again after the previous server was killed hard", async () => {
    const first = await start(env)
    await first.stop("SIGKILL")
    const second = await start(env)
    expect((await getJson(`${second.base}/api/v9/version`)).status).toBe(200)
    expect(await second.stop()).toBe(0)
  }, 90_000)
})

describe.runIf(process.getuid?.() === 0)("run as root from a folder PostgreSQL's user cannot enter", () => {
  it("keeps the default data in a stable folder under /var/lib/veche and says so", async () => {
    // Like a clone in `mktemp -d`: the project folder sits inside a 0700 folder.
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), "veche-closed-"))
    fs.chmodSync(closed, 0o700)
    const project = path.join(closed, "project")
    fs.mkdirSync(project)
    const fallback = DefaultDataDir.fallbackFor(path.join(project, ".veche"))
    try {
      const env = { DATABASE_URL: "", SERVICE_DATA_DIR: "" }
      const first = await start(env, { cwd: project })
      expect(first.output()).toContain(`keeping this project's data in ${fallback}`)
      expect(first.output()).toContain(`embedded PostgreSQL in ${fallback}`)
      expect((await getJson(`${first.base}/api/v10/version`)).status).toBe(200)
      expect(first.output()).toContain("database migrated")
      expect(await first.stop()).toBe(0)
      // the same folder next time: the data is still there (nothing to migrate)
      const second = await start(env, { cwd: project })
      expect(second.output()).not.toContain("database migrated")
      expect(await second.stop()).toBe(0)
      expect(fs.existsSync(path.join(project, ".veche"))).toBe(false)
      expect(fs.statSync(closed).mode & 0o777).toBe(0o700)
    } finally {
      fs.rmSync(closed, { recursive: true, force: true })
      fs.rmSync(fallback, { recursive: true, force: true })
    }
  }, 90_000)
})

const databaseUrl = process.env.DATABASE_URL

describe.runIf(databaseUrl !== undefined && databaseUrl !== "")("reference server on DATABASE_URL", () => {
  it("migrates its schema, serves the documented errors, and stops cleanly", async () => {
    const schema = `veche_e2e_${process.pid}_${Date.now().toString(36)}`
    const server = await start({ DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: schema })
    try {
      expect(server.output()).toContain("database migrated")
      expect(server.output()).toContain("PostgreSQL at DATABASE_URL")
      expect(await getJson(`${server.base}/api/v10/version`)).toEqual({
        status: 200,
        body: { version: pkg.version, api: 1, env: "dev" }
      })
      expect(await getJson(`${server.base}/api/v10/unknown`)).toEqual({
        status: 404,
        body: { code: 0, message: "404: Not Found" }
      })
      expect(await getJson(`${server.base}/api/v10/version`, { method: "PATCH" })).toEqual({
        status: 405,
        body: { code: 0, message: "405: Method Not Allowed" }
      })
      // a declared body over the limit is refused before routing (and before it is read)
      expect(
        await getJson(`${server.base}/api/v10/version`, { method: "POST", body: "x".repeat(2 * 1024 * 1024) })
      ).toEqual({ status: 413, body: { code: 40005, message: "Request entity too large" } })

      // registration by phone on PostgreSQL: code from the dev outbox, account, session, @me
      const api = `${server.base}/api/v10`
      const phone = `+7916${String(Date.now()).slice(-7)}`
      const { access_token, user_id } = await registerByPhone(server.base, phone, `pg_user_${process.pid}`)
      expect(
        await getJson(`${api}/users/%40me`, { headers: { authorization: `Bearer ${access_token}` } })
      ).toMatchObject({
        status: 200,
        body: { id: user_id, username: `pg_user_${process.pid}` }
      })
    } finally {
      expect(await server.stop()).toBe(0)
      const drop = spawn("psql", [databaseUrl ?? "", "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  }, 60_000)
})
