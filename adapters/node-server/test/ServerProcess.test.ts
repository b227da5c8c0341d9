/**
 * The reference server as an operator runs it: a separate Node process started from bin.ts, on the
 * embedded PostgreSQL default and on a real PostgreSQL, stopped by signal and started again.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import pkg from "../package.json" with { type: "json" }

const BIN = path.resolve(import.meta.dirname, "../src/bin.ts")
const ANNOUNCE = /listening on (http:\/\/\S+?)\/api\/v1 /

interface Running {
  readonly base: string
  readonly child: ChildProcess
  readonly output: () => string
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

const start = (env: Record<string, string>): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], {
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", SERVICE_ACCESS_LOG: "true", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`server did not announce itself within 30 s:\n${output}`))
    }, 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = ANNOUNCE.exec(output)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        resolve({
          base: match[1],
          child,
          output: () => output,
          stop: (signal = "SIGTERM") => {
            child.kill(signal)
            return exited
          }
        })
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before announcing itself:\n${output}`))
    })
  })

const getJson = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init)
  return { status: response.status, body: (await response.json()) as unknown }
}

const tempDirs: Array<string> = []
afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
})

describe("reference server on the embedded PostgreSQL (no DATABASE_URL)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "veche-server-"))
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter the folder.
  fs.chmodSync(dataDir, 0o755)
  tempDirs.push(dataDir)
  const env = { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir }

  it("starts with nothing installed, answers, and stops with exit code 0 on SIGTERM", async () => {
    const server = await start(env)
    expect(await getJson(`${server.base}/api/v10/version`)).toEqual({
      status: 200,
      body: { version: pkg.version, api: 1, env: "dev" }
    })
    expect(await getJson(`${server.base}/api/v10/gateway`)).toEqual({
      status: 200,
      body: { url: expect.stringMatching(/^ws:\/\/127\.0\.0\.1:\d+\/gateway$/) }
    })
    expect(server.output()).toContain("database migrated")
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
      expect(
        await getJson(`${server.base}/api/v10/version`, { method: "POST", body: "x".repeat(2 * 1024 * 1024) })
      ).toEqual({ status: 405, body: { code: 0, message: "405: Method Not Allowed" } })
    } finally {
      expect(await server.stop()).toBe(0)
      const drop = spawn("psql", [databaseUrl ?? "", "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  }, 60_000)
})
