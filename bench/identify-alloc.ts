/**
 * `node --expose-gc --max-semi-space-size=512 --min-semi-space-size=512 bench/identify-alloc.ts`
 * (DATABASE_URL): what one IDENTIFY allocates and how many statements it sends, in this process.
 * The test host on PostgreSQL (a fresh schema, dropped at the end) behind a loopback listener, one
 * user in one guild as in the gateway bench (intents GUILDS | GUILD_MESSAGE_TYPING); after a
 * warm-up, rounds of IDENTIFY → READY → GUILD_CREATE with a full GC before each, the heap growth
 * over the round read with no collection inside it (the young generation made larger than a round
 * allocates; a round during which a GC ran is reported and left out). The `ws` client's own work
 * (one connection, its frames) is in the figure too, alike on both sides of a comparison.
 *
 * IDENTIFY_ROUNDS (9), IDENTIFY_PER_ROUND (50); IDENTIFY_LOG_SQL=1 prints one identify's statements.
 */
import { createServer } from "node:http"
import { Session as Inspector } from "node:inspector/promises"
import { createServer as createNetServer, Socket } from "node:net"
import { PerformanceObserver } from "node:perf_hooks"
import { NodeHttpServer } from "@effect/platform-node"
import { IdentifyLimits } from "@veche/gateway"
import { PgRepositories, PgTestSchema } from "@veche/postgres"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { HttpServer } from "effect/http"
import WebSocket from "ws"

const url = process.env.DATABASE_URL
if (url === undefined || url === "") throw new Error("DATABASE_URL is required")
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with --expose-gc")
const ROUNDS = Number(process.env.IDENTIFY_ROUNDS ?? 9)
const PER_ROUND = Number(process.env.IDENTIFY_PER_ROUND ?? 50)

// every statement sent to PostgreSQL, counted as the protocol's Execute messages in what is
// written to its port (the driver speaks the extended protocol: Parse/Bind/Describe/Execute/Sync)
let statements = 0
let logSql = false
const prepared = new Map<string, string>()
const pgPort = Number(new URL(url).port || 5432)
const write = Socket.prototype.write as (...args: Array<unknown>) => boolean
Socket.prototype.write = function (this: Socket, ...args: Array<unknown>) {
  const chunk = args[0]
  if (this.remotePort === pgPort && chunk instanceof Uint8Array) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    for (let at = 0; at + 5 <= bytes.length; ) {
      const type = String.fromCharCode(bytes[at] ?? 0)
      const length = bytes.readInt32BE(at + 1)
      if (type === "E") statements += 1
      if (type === "P") {
        // Parse: statement name, query text (kept by name, to print a prepared statement's Bind)
        const nameEnd = bytes.indexOf(0, at + 5)
        const queryEnd = bytes.indexOf(0, nameEnd + 1)
        const text = bytes.toString("utf8", nameEnd + 1, queryEnd).replace(/\s+/g, " ")
        prepared.set(bytes.toString("utf8", at + 5, nameEnd), text)
      }
      if (type === "B" && logSql) {
        // Bind: portal name, statement name
        const portalEnd = bytes.indexOf(0, at + 5)
        const nameEnd = bytes.indexOf(0, portalEnd + 1)
        console.log(`  SQL: ${(prepared.get(bytes.toString("utf8", portalEnd + 1, nameEnd)) ?? "?").slice(0, 220)}`)
      }
      at += 1 + length
    }
  }
  return write.apply(this, args)
} as typeof Socket.prototype.write

let gcs = 0
new PerformanceObserver((list) => {
  gcs += list.getEntries().length
}).observe({ entryTypes: ["gc"] })

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer()
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** What follows the last `marker` (all of `text` without one). */
const afterLast = (text: string, marker: string) => {
  const at = text.lastIndexOf(marker)
  return at < 0 ? text : text.slice(at + marker.length)
}
const ROOT_URL = new URL("../", import.meta.url).href

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly selfSize: number
  readonly children: ReadonlyArray<ProfileNode>
}

/**
 * IDENTIFY_PROFILE=1: V8's sampling heap profiler over 200 identifies, collected objects included:
 * the bytes allocated by package (the allocating function's file) and the top functions.
 */
const profile = async (identifyOnce: () => Promise<void>, closeAll: () => Promise<void>) => {
  const inspector = new Inspector()
  inspector.connect()
  await inspector.post("HeapProfiler.startSampling", {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true
  })
  const count = 200
  for (let i = 0; i < count; i++) {
    await identifyOnce()
    if (i % 50 === 49) await closeAll()
  }
  const { profile: result } = (await inspector.post("HeapProfiler.stopSampling")) as {
    profile: { head: ProfileNode }
  }
  const byPackage = new Map<string, number>()
  const byFunction = new Map<string, number>()
  const byCaller = new Map<string, number>()
  const byChain = new Map<string, number>()
  const walk = (node: ProfileNode, caller = "", chain: ReadonlyArray<string> = []) => {
    const url = node.callFrame.url
    const pkg =
      /node_modules\/\.pnpm\/[^/]+\/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
      /\/(packages|adapters)\/([^/]+)\//.exec(url)?.[2] ??
      (url === "" ? "(native)" : url.startsWith("node:") ? "node" : afterLast(url, "/"))
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.selfSize)
    const file = url.includes("node_modules/") ? afterLast(url, "node_modules/") : url.replace(ROOT_URL, "")
    const name = `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber + 1}`
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize)
    // a native frame's bytes charged to the JavaScript function that called it
    if (url === "") byCaller.set(`${name} ← ${caller}`, (byCaller.get(`${name} ← ${caller}`) ?? 0) + node.selfSize)
    const short = `${node.callFrame.functionName || "(anon)"}@${afterLast(url, "/")}:${node.callFrame.lineNumber + 1}`
    const path = [...chain.slice(-Number(process.env.IDENTIFY_CHAIN_DEPTH ?? 9)), short]
    if (/Context\.js/.test(caller) || /Context\.js/.test(url))
      byChain.set(path.join(" > "), (byChain.get(path.join(" > ")) ?? 0) + node.selfSize)
    for (const child of node.children) walk(child, url === "" ? caller : name, path)
  }
  walk(result.head)
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, bytes]) => `  ${(bytes / count / 1024).toFixed(1).padStart(7)} KB  ${name}`)
      .join("\n")
  console.log(`allocated per IDENTIFY by package (sampled):\n${top(byPackage, 25)}`)
  console.log(`by function:\n${top(byFunction, 40)}`)
  console.log(`native, by caller:\n${top(byCaller, 25)}`)
  if (process.env.IDENTIFY_CHAINS === "1") console.log(`context copies, by call chain:\n${top(byChain, 12)}`)
  await closeAll()
}

const port = await freePort()
const repositories = PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url))), Layer.orDie)
const host = TestHost.layer({
  repositories,
  gatewayUrl: `ws://127.0.0.1:${port}/gateway`,
  // one user's many sessions, as the gateway bench lifts it
  identifyLimits: IdentifyLimits.IdentifyLimits.layerMemory(undefined, { total: 1e9, burst: 1e9 })
})

const measure = Effect.gen(function* () {
  const testHost = yield* TestHost.TestHost
  yield* HttpServer.serveEffect(testHost.app)
  const api = async (method: string, path: string, body?: unknown, token?: string) =>
    testHost.fetchPromise(`http://127.0.0.1:${port}/api/v10${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  return yield* Effect.promise(async () => {
    const phone = "+79050001234"
    const started = (await (await api("POST", "/auth/register/phone", { phone, captcha_token: "dev" })).json()) as {
      verification_id: string
    }
    const outbox = (await (await api("GET", `/dev/outbox?to=${encodeURIComponent(phone)}`)).json()) as {
      messages: Array<{ code?: string }>
    }
    const registered = (await (
      await api("POST", "/auth/register/verify", {
        verification_id: started.verification_id,
        code: outbox.messages.at(-1)?.code,
        username: "alloc_user",
        password: "correct horse battery",
        date_of_birth: "1995-01-01",
        consent: true
      })
    ).json()) as { access_token: string }
    const token = registered.access_token
    const made = await api("POST", "/guilds", { name: "Alloc Guild" }, token)
    if (made.status !== 201) throw new Error(`guild: ${made.status} ${await made.text()}`)

    const sockets: Array<WebSocket> = []
    const identifyOnce = () =>
      new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}/gateway?v=10&encoding=json`)
        sockets.push(socket)
        socket.on("error", reject)
        socket.on("message", (data) => {
          const text = String(data)
          if (process.env.DEBUG_WS === "1") console.log(text.slice(0, 120))
          if (text.startsWith('{"op":10') || text.includes('"op":10,'))
            socket.send(
              JSON.stringify({
                op: 2,
                d: { token, intents: (1 << 0) | (1 << 11), properties: { os: "a", browser: "a", device: "a" } }
              })
            )
          else if (text.includes('"t":"GUILD_CREATE"')) resolve()
        })
      })
    const closeAll = async () => {
      await Promise.all(
        sockets.splice(0).map(
          (socket) =>
            new Promise<void>((resolve) => {
              socket.on("close", () => resolve())
              socket.close(1000)
            })
        )
      )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }

    // warm-up: code paths compiled, caches (the guild's channel rules) loaded
    for (let i = 0; i < 100; i++) await identifyOnce()
    await closeAll()
    logSql = process.env.IDENTIFY_LOG_SQL === "1"
    const before = statements
    await identifyOnce()
    logSql = false
    console.log(`statements per IDENTIFY (one after the warm-up): ${statements - before}`)
    await closeAll()

    const perIdentify: Array<number> = []
    const kept: Array<number> = []
    for (let round = 0; round < ROUNDS; round++) {
      gc?.()
      gc?.()
      await new Promise((resolve) => setTimeout(resolve, 50))
      const gcsBefore = gcs
      const heapBefore = process.memoryUsage().heapUsed
      for (let i = 0; i < PER_ROUND; i++) await identifyOnce()
      const heapAfter = process.memoryUsage().heapUsed
      // the observer reports asynchronously: give it a turn
      await new Promise((resolve) => setTimeout(resolve, 0))
      const collected = gcs - gcsBefore
      const kb = (heapAfter - heapBefore) / PER_ROUND / 1024
      if (collected > 0) console.log(`round ${round}: ${collected} GC(s) ran, left out (${kb.toFixed(1)} KB)`)
      else perIdentify.push(kb)
      // what the round's sessions keep while open (their sockets included, both ends)
      gc?.()
      gc?.()
      kept.push((process.memoryUsage().heapUsed - heapBefore) / PER_ROUND / 1024)
      await closeAll()
    }
    const keptSorted = [...kept].sort((a, b) => a - b)
    console.log(
      `heap kept per open session after a full GC (KB): median ${(keptSorted[Math.floor(keptSorted.length / 2)] ?? 0).toFixed(1)} ` +
        `[${keptSorted.map((kb) => kb.toFixed(1)).join(", ")}]`
    )
    if (process.env.IDENTIFY_PROFILE === "1") await profile(identifyOnce, closeAll)
    const sorted = [...perIdentify].sort((a, b) => a - b)
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
    console.log(
      `heap allocated per IDENTIFY (KB, ${perIdentify.length} rounds of ${PER_ROUND}): median ${median.toFixed(1)} ` +
        `[${sorted.map((kb) => kb.toFixed(0)).join(", ")}]`
    )
  })
})

await Effect.runPromise(
  Effect.scoped(
    Effect.provide(
      measure,
      Layer.merge(
        host,
        NodeHttpServer.layer(() => createServer(), { host: "127.0.0.1", port })
      ).pipe(Layer.orDie)
    )
  )
)
process.exit(0)
