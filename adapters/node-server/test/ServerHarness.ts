/**
 * Runs the reference server as an operator does: a separate Node process from bin.ts, found by the
 * URL in its start line. Shared by the process-level suites.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const BIN = path.resolve(import.meta.dirname, "../src/bin.ts")
const ANNOUNCE = /listening on (http:\/\/\S+?)\/api\/v1 /

export interface Running {
  readonly base: string
  readonly child: ChildProcess
  readonly output: () => string
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

const running = new Set<Running>()

/** Stops every server still running (call from afterEach: a failed assertion must not leave one behind). */
export const stopAll = async (): Promise<void> => {
  await Promise.all([...running].map((server) => server.stop("SIGKILL")))
}

export const start = (env: Record<string, string>, options: { readonly cwd?: string } = {}): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      // No shared Redis unless a test asks for it: counters there outlive the run and are shared
      // by every process on the machine.
      env: { ...process.env, HOST: "127.0.0.1", PORT: "0", SERVICE_ACCESS_LOG: "true", REDIS_URL: "", ...env },
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
        const server: Running = {
          base: match[1],
          child,
          output: () => output,
          stop: (signal = "SIGTERM") => {
            child.kill(signal)
            return exited
          }
        }
        running.add(server)
        void exited.then(() => running.delete(server))
        resolve(server)
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code} before announcing itself:\n${output}`))
    })
  })

export const getJson = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init)
  const text = await response.text()
  // 204 and friends have no body.
  return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as unknown }
}

/** A JSON call to a running server's `/api/v10`, with an optional body, user token and headers. */
export const apiCaller =
  (base: string) =>
  (method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) =>
    getJson(`${base}/api/v10${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })

/**
 * The code of the newest message of a kind (`register`, `recover`, …) in a dev-mode server's
 * outbox to an address. Some flows queue it after answering, so this waits up to 5 s for it.
 */
export const outboxCode = async (base: string, to: string, kind: string): Promise<string> => {
  const call = apiCaller(base)
  for (let i = 0; i < 50; i++) {
    const outbox = await call("GET", `/dev/outbox?to=${encodeURIComponent(to)}`)
    // A suite's many requests from one address can meet the global limit (a CI run once did): wait
    // as told, as a client would.
    if (outbox.status === 429) {
      const after = (outbox.body as { retry_after?: number } | null)?.retry_after ?? 1
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(after * 1000)))
      continue
    }
    if (outbox.status !== 200) throw new Error(`the outbox answered ${outbox.status}: ${JSON.stringify(outbox.body)}`)
    // A message's code is optional in the outbox (a letter with a link has none).
    const found = (outbox.body as { messages: Array<{ kind: string; code?: string }> }).messages
      .filter((message) => message.kind === kind)
      .at(-1)
    if (found?.code !== undefined) return found.code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no ${kind} code for ${to}`)
}

/**
 * Registers an account by phone on a dev-mode server, with the code its outbox shows, and answers
 * the registration's token pair and user id (a refusal throws with the answer).
 */
export const registerByPhone = async (
  base: string,
  phone: string,
  username: string,
  password = "correct horse battery"
): Promise<{ access_token: string; refresh_token: string; user_id: string }> => {
  const call = apiCaller(base)
  const started = await call("POST", "/auth/register/phone", { phone, captcha_token: "dev" })
  if (started.status !== 200)
    throw new Error(`registration answered ${started.status}: ${JSON.stringify(started.body)}`)
  const registered = await call("POST", "/auth/register/verify", {
    verification_id: (started.body as { verification_id?: string } | null)?.verification_id,
    code: await outboxCode(base, phone, "register"),
    username,
    password,
    date_of_birth: "1990-05-05",
    consent: true
  })
  if (registered.status !== 201)
    throw new Error(`registration answered ${registered.status}: ${JSON.stringify(registered.body)}`)
  return registered.body as { access_token: string; refresh_token: string; user_id: string }
}

/** A temporary data folder the embedded PostgreSQL can use (as root it runs as `postgres`). */
export const tempDataDir = (): string => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "veche-server-"))
  fs.chmodSync(dir, 0o755)
  return dir
}

const sharedRedisUrl = process.env.REDIS_URL ?? ""
const sharedDatabaseUrl = process.env.DATABASE_URL ?? ""

/** Whether the machine offers the PostgreSQL and Redis that several nodes share. */
export const clusterAvailable = sharedRedisUrl !== "" && sharedDatabaseUrl !== ""

/**
 * What the nodes of one two-node test share: the machine's PostgreSQL in a schema of this run, and
 * its Redis under keys of this run only (the registration quotas of earlier runs, an hour per
 * address, live on there), with route limits off (several registrations from one address in a
 * row). `dropSchema` is for the suite's `afterAll`.
 */
export const clusterOf = (name: string) => {
  const schema = `veche_${name}_${process.pid}`
  return {
    env: {
      REDIS_URL: sharedRedisUrl,
      SERVICE_REDIS_PREFIX: `veche-test-${process.pid}-${Date.now()}:`,
      DATABASE_URL: sharedDatabaseUrl,
      DATABASE_SCHEMA: schema,
      SERVICE_RATE_LIMITS_ENABLED: "false"
    },
    dropSchema: async (): Promise<void> => {
      const drop = spawn("psql", [sharedDatabaseUrl, "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  }
}
