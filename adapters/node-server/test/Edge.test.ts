/**
 * The reference server's edge against raw sockets, as an attacker would meet it (issue 16): a body
 * declared over the limit is refused before it is read, slow headers and slow bodies are cut off,
 * the access log keeps secrets out, X-Forwarded-For is believed only as far as trusted proxies go,
 * and dev mode does not start where the network can reach it.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { VERSION } from "../src/Version.ts"
import { type Running, start, stopAll, tempDataDir } from "./ServerHarness.ts"

const dataDir = tempDataDir()
const databaseUrl = process.env.DATABASE_URL
const onPostgres = databaseUrl !== undefined && databaseUrl !== ""

/** What a raw connection saw: everything received, and when the server closed it (ms after start). */
interface Exchange {
  readonly received: string
  readonly closedAfterMs: number | undefined
  readonly firstByteAfterMs: number | undefined
}

/**
 * Opens a socket (from `localAddress` when given), writes `parts` with `gapMs` between them, and
 * waits until the server closes it or `waitMs` passes.
 */
const exchange = (
  base: string,
  parts: ReadonlyArray<string | Buffer>,
  options: { readonly gapMs?: number; readonly waitMs: number; readonly localAddress?: string }
): Promise<Exchange> =>
  new Promise((resolve) => {
    const url = new URL(base)
    const started = Date.now()
    let received = ""
    let firstByteAfterMs: number | undefined
    let timer: NodeJS.Timeout | undefined
    const socket = net.connect({
      host: url.hostname,
      port: Number(url.port),
      ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress })
    })
    const finish = (closedAfterMs: number | undefined) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ received, closedAfterMs, firstByteAfterMs })
    }
    socket.on("data", (chunk) => {
      firstByteAfterMs ??= Date.now() - started
      received += chunk.toString("latin1")
    })
    socket.on("error", () => {})
    socket.on("close", () => finish(Date.now() - started))
    timer = setTimeout(() => finish(undefined), options.waitMs)
    void (async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0 && options.gapMs !== undefined) await new Promise((done) => setTimeout(done, options.gapMs))
        if (socket.destroyed) return
        socket.write(part)
      }
    })()
  })

const requestHead = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nHost: edge.test\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`

const bodyOf = (received: string): unknown => JSON.parse(received.slice(received.indexOf("\r\n\r\n") + 4))

describe("the reference server's edge", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({
      ...(onPostgres
        ? { DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: `veche_edge_${process.pid}` }
        : { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir }),
      SERVICE_HEADERS_TIMEOUT: "1 second",
      SERVICE_REQUEST_TIMEOUT: "2 seconds",
      // the loopback address the tests connect from as "the proxy"; 127.0.0.1 is then a stranger
      SERVICE_TRUSTED_PROXIES: "127.0.0.2",
      // a front end served from another origin
      SERVICE_CORS_ORIGINS: "https://front.example, http://localhost:5173"
    })
  }, 60_000)
  afterAll(async () => {
    await stopAll()
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (onPostgres) {
      const drop = spawn("psql", [
        databaseUrl ?? "",
        "-qc",
        `DROP SCHEMA IF EXISTS "veche_edge_${process.pid}" CASCADE`
      ])
      await new Promise((done) => drop.once("exit", done))
    }
  })

  it("answers CORS for the configured origins only: preflights, and answers (errors too) a page can read", async () => {
    const preflight = await fetch(`${server.base}/api/v10/users/@me`, {
      method: "OPTIONS",
      headers: {
        origin: "https://front.example",
        "access-control-request-method": "PATCH",
        "access-control-request-headers": "authorization, content-type"
      }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://front.example")
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH")
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization")

    const refused = await fetch(`${server.base}/api/v10/users/@me`, { headers: { origin: "http://localhost:5173" } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get("access-control-allow-origin")).toBe("http://localhost:5173")
    expect(refused.headers.get("access-control-expose-headers")).toContain("x-ratelimit-remaining")
    expect(refused.headers.get("vary")).toContain("Origin")
    expect(await refused.json()).toMatchObject({ code: 40001 })

    for (const origin of ["https://evil.example", "https://front.example.evil", "null"]) {
      const stranger = await fetch(`${server.base}/api/v10/version`, { headers: { origin } })
      expect(stranger.status).toBe(200)
      expect(stranger.headers.get("access-control-allow-origin"), origin).toBeNull()
    }
  })

  it("answers GET /version before the app (Node), at the edge (forwarded) and routed (a query) byte for byte alike", async () => {
    const origin = { origin: "https://front.example" }
    const volatile = /^(date|x-ratelimit-remaining|x-ratelimit-reset|x-ratelimit-reset-after): .*$/i
    const shape = (received: string) => {
      const [head = "", body] = received.split("\r\n\r\n")
      return { head: head.split("\r\n").map((line) => line.replace(volatile, "$1: …")), body }
    }
    // from an address of this test's own (no trusted proxy: its X-Forwarded-For is not believed, so
    // all three count one client), to find its access-log lines among the other tests'
    const send = (path: string, headers: Record<string, string>) =>
      exchange(server.base, [requestHead("GET", path, { ...headers, connection: "close" })], {
        waitMs: 5_000,
        localAddress: "127.0.0.3"
      })
    const beforeApp = shape((await send("/api/v10/version", origin)).received)
    const atEdge = shape((await send("/api/v10/version", { ...origin, "x-forwarded-for": "192.0.2.1" })).received)
    const routed = shape((await send("/api/v10/version?check=1", origin)).received)
    expect(beforeApp.head[0]).toBe("HTTP/1.1 200 OK")
    expect(beforeApp.head).toContain("access-control-allow-origin: https://front.example")
    expect(beforeApp.head).toContain("x-ratelimit-remaining: …")
    expect(beforeApp).toEqual(atEdge)
    expect(beforeApp).toEqual(routed)
    // one access-log line each, from the client's address (lines are written once per event-loop turn)
    const ours = () =>
      server
        .output()
        .split("\n")
        .filter((line) => line.includes(" 127.0.0.3 req="))
    for (let waited = 0; ours().length < 3 && waited < 3_000; waited += 50)
      await new Promise((done) => setTimeout(done, 50))
    const lines = ours()
    expect(lines.filter((line) => / GET \/api\/v10\/version 200 [\d.]+ms 127\.0\.0\.3 req=/.test(line))).toHaveLength(2)
    expect(lines.filter((line) => / GET \/api\/v10\/version\?check=\[redacted\] 200 /.test(line))).toHaveLength(1)
  })

  it("writes GET /version before the app byte for byte as pinned: status line, headers in order, body", async () => {
    // From addresses of this test's own, so the version bucket (60 a minute) counts from zero: the
    // first request leaves 59, its window's share (60 s / 60) ahead of it.
    const body = `{"version":"${VERSION}","api":1,"env":"dev"}`
    const limiterLines = (reset: string) => [
      "x-ratelimit-limit: 60",
      "x-ratelimit-remaining: 59",
      `x-ratelimit-reset: ${reset}`,
      "x-ratelimit-reset-after: 1.000",
      "x-ratelimit-bucket: e7869a0b5a88533d"
    ]
    const EXPOSED =
      "access-control-expose-headers: retry-after,x-ratelimit-limit,x-ratelimit-remaining,x-ratelimit-reset," +
      "x-ratelimit-reset-after,x-ratelimit-bucket,x-ratelimit-scope,x-ratelimit-global"
    const send = async (
      localAddress: string,
      headers: Record<string, string>,
      waitMs: number,
      path = "/api/v10/version"
    ) => {
      const before = Date.now()
      const { received } = await exchange(server.base, [requestHead("GET", path, headers)], {
        waitMs,
        localAddress
      })
      const [head = "", ...rest] = received.split("\r\n\r\n")
      const lines = head.split("\r\n")
      // the two values that are clocks: the window's end (Unix seconds, 3 decimals) and Date
      const reset = lines.find((line) => line.startsWith("x-ratelimit-reset: "))?.slice(19) ?? ""
      expect(reset).toMatch(/^\d+\.\d{3}$/)
      expect(Number(reset) * 1000).toBeGreaterThanOrEqual(before + 1000 - 1)
      expect(Number(reset) * 1000).toBeLessThanOrEqual(Date.now() + 1000)
      const date = lines.find((line) => line.startsWith("Date: ")) ?? ""
      expect(Date.parse(date.slice(6))).toBeGreaterThan(before - 2000)
      return { lines, reset, date, body: rest.join("\r\n\r\n") }
    }

    const plain = await send("127.0.0.5", { connection: "close" }, 5_000)
    expect(plain.lines).toEqual([
      "HTTP/1.1 200 OK",
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(body)}`,
      "vary: Origin",
      EXPOSED,
      ...limiterLines(plain.reset),
      plain.date,
      "Connection: close"
    ])
    expect(plain.body).toBe(body)

    // an allowed origin, on a connection kept alive (the server does not close it: read until quiet)
    // what an allowed origin's page is answered on a kept-alive connection, reset and date as sent
    const keptAliveFromPage = (answer: { readonly reset: string; readonly date: string }) => [
      "HTTP/1.1 200 OK",
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(body)}`,
      "access-control-allow-origin: http://localhost:5173",
      "vary: Origin",
      EXPOSED,
      ...limiterLines(answer.reset),
      answer.date,
      "Connection: keep-alive",
      "Keep-Alive: timeout=5"
    ]
    const fromPage = await send("127.0.0.6", { origin: "http://localhost:5173" }, 500)
    expect(fromPage.lines).toEqual(keptAliveFromPage(fromPage))
    expect(fromPage.body).toBe(body)

    // the same answer routed (a query takes it past the compiled path, through effect's Node
    // adapter), on a connection kept alive: the same bytes, head and body
    const routed = await send("127.0.0.7", { origin: "http://localhost:5173" }, 500, "/api/v10/version?check=1")
    expect(routed.lines).toEqual(keptAliveFromPage(routed))
    expect(routed.body).toBe(body)
  })

  it("answers 413 40005 at once to a body declared over the limit, sent in part, then stalled, and closes", async () => {
    const head = requestHead("POST", "/api/v10/auth/login", {
      "content-type": "application/json",
      "content-length": String(5 * 1024 * 1024)
    })
    const seen = await exchange(server.base, [head, Buffer.alloc(1024 * 1024, "a")], { waitMs: 2_000 })
    expect(seen.received).toMatch(/^HTTP\/1\.1 413 /)
    expect(seen.received.toLowerCase()).toContain("connection: close")
    expect(bodyOf(seen.received)).toEqual({ code: 40005, message: "Request entity too large" })
    expect(seen.firstByteAfterMs).toBeLessThan(1_000)
    expect(seen.closedAfterMs).toBeDefined()
  })

  it("the image routes take up to 6 MiB, and no more", async () => {
    const head = (length: number) =>
      requestHead("PATCH", "/api/v10/users/@me", {
        "content-type": "application/json",
        "content-length": String(length),
        connection: "close"
      })
    // within the image limit: read (then refused for want of a token, once the body is in)
    const within = await exchange(server.base, [head(10), "{}        "], { waitMs: 2_000 })
    expect(within.received).toMatch(/^HTTP\/1\.1 401 /)
    const over = await exchange(server.base, [head(6 * 1024 * 1024 + 1)], { waitMs: 2_000 })
    expect(over.received).toMatch(/^HTTP\/1\.1 413 /)
  })

  it("cuts off headers that trickle in (slow-loris) within the headers timeout", async () => {
    const parts = ["GET /api/v10/version HTTP/1.1\r\n", "Host: edge.test\r\n", ...Array(20).fill("X-Slow: 1\r\n")]
    const seen = await exchange(server.base, parts, { gapMs: 250, waitMs: 4_500 })
    expect(seen.closedAfterMs).toBeDefined()
    expect(seen.closedAfterMs).toBeLessThan(4_500)
    expect(seen.received).not.toMatch(/^HTTP\/1\.1 200 /)
  })

  it("cuts off a body that trickles in within the request timeout, with 408", async () => {
    const head = requestHead("POST", "/api/v10/auth/login", {
      "content-type": "application/json",
      "content-length": "200"
    })
    const seen = await exchange(server.base, [head, ...Array(20).fill("          ")], { gapMs: 300, waitMs: 5_000 })
    expect(seen.closedAfterMs).toBeDefined()
    expect(seen.closedAfterMs).toBeLessThan(5_000)
    expect(seen.received).toMatch(/^HTTP\/1\.1 408 /)
    expect(bodyOf(seen.received)).toEqual({ code: 0, message: "408: Request Timeout" })
  })

  it("answers requests Node refuses before the app (bad bytes, bad lengths) in the API's error shape", async () => {
    for (const head of [
      "GET /api/v10/guilds/1\u00002 HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /api/v10/users/é HTTP/1.1\r\nHost: x\r\n\r\n",
      "POST /api/v10/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n{}",
      "GET /api/v10/version HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n"
    ]) {
      const seen = await exchange(server.base, [Buffer.from(head, "latin1")], { waitMs: 2_000 })
      expect({ head, status: seen.received.slice(0, 12) }).toEqual({ head, status: "HTTP/1.1 400" })
      expect(bodyOf(seen.received)).toEqual({ code: 0, message: "400: Bad Request" })
      expect(seen.closedAfterMs).toBeDefined()
    }
    const huge = requestHead("GET", "/api/v10/version", { "x-big": "a".repeat(20_000) })
    const seen = await exchange(server.base, [huge], { waitMs: 2_000 })
    expect(seen.received.slice(0, 12)).toBe("HTTP/1.1 431")
    expect(bodyOf(seen.received)).toEqual({ code: 0, message: "431: Request Header Fields Too Large" })
  })

  it("writes no query secret and no Authorization value to the access log", async () => {
    const response = await fetch(`${server.base}/api/v10/exports/1234567890123456789?token=export-link-secret-42`, {
      headers: { authorization: "Bearer access-token-secret-42" }
    })
    await response.arrayBuffer()
    // the batched writer flushes once per event-loop turn; give the line a moment to arrive
    await new Promise((done) => setTimeout(done, 300))
    expect(server.output()).toContain("GET /api/v10/exports/1234567890123456789?token=[redacted]")
    expect(server.output()).not.toContain("export-link-secret-42")
    expect(server.output()).not.toContain("access-token-secret-42")
  })

  it("takes the client address from X-Forwarded-For only through trusted proxies: the rightmost untrusted entry", async () => {
    const probe = async (from: string, forwardedFor: string) => {
      const marker = `/api/v10/version?limit=${Math.floor(Math.random() * 1e9)}`
      const head = requestHead("GET", marker, { "x-forwarded-for": forwardedFor, connection: "close" })
      await exchange(server.base, [head], { waitMs: 2_000, localAddress: from })
      await new Promise((done) => setTimeout(done, 300))
      const line = server
        .output()
        .split("\n")
        .find((text) => text.includes(`GET ${marker} `))
      return line?.split(" ").at(-2)
    }
    // the trusted proxy appended the peer it saw to what the client sent: the proxy's observation wins
    expect(await probe("127.0.0.2", "6.6.6.6, 203.0.113.9")).toBe("203.0.113.9")
    // a client naming a trusted proxy in its own header does not move the choice past it
    expect(await probe("127.0.0.2", "6.6.6.6, 127.0.0.2, 203.0.113.9")).toBe("203.0.113.9")
    // proxies in a chain, all trusted: the first untrusted one from the right
    expect(await probe("127.0.0.2", "6.6.6.6, 203.0.113.9, 127.0.0.2")).toBe("203.0.113.9")
    // a peer that is not a trusted proxy is the client, whatever its header says
    expect(await probe("127.0.0.1", "203.0.113.9")).toBe("127.0.0.1")
  })
})

describe("dev mode on the network", () => {
  afterAll(stopAll)

  it("refuses to start on a non-loopback HOST without SERVICE_DEV_ON_NETWORK, naming the variables", async () => {
    const failed = await start({ HOST: "0.0.0.0", SERVICE_ENV: "dev", SERVICE_DATA_DIR: dataDir }).then(
      () => "started",
      (error: Error) => error.message
    )
    expect(failed).toContain("refusing to start in dev mode")
    expect(failed).toContain("SERVICE_ENV")
    expect(failed).toContain("SERVICE_DEV_ON_NETWORK=true")
    expect(failed).toContain("HOST=0.0.0.0")
  }, 30_000)
})
