/**
 * `node bench/redis-micro.ts`: what one route-limit count costs this process's CPU through each
 * layer between the limiter and Redis, without HTTP. The same EVALSHA of the route-count script (a
 * token caller: two keys) is sent `MICRO_CALLS` times with `MICRO_CONCURRENCY` in flight (as the
 * bench's 50 connections keep them), through:
 *
 *   raw         a bare RESP round trip on a net.Socket (command written as one string, replies
 *               split by hand): the floor any client sits on
 *   node-redis  `client.sendCommand` awaited (RESP2, the default), `resp3` (`RESP: 3`), and
 *               `untimed` (`commandOptions: { timeout: 0 }`: no AbortSignal.timeout per command)
 *   effect      `Redis.send` of the adapter's connection (@effect/platform-node's NodeRedis), as
 *               `RouteLimiter.layerRedis` called it before it counted over `RouteCountConnection`
 *   limiter     `RouteLimiter.layerRedis`'s whole `check` (keys, arguments, send, answer), 50 callers
 *   limiter-1   the same from one caller (as the HTTP bench's limiter rows: every count on two keys)
 *   prepared-1  limiter-1 through one prepared check (`RouteLimiter.prepare`), as the middleware runs it
 *   effect-raw  the raw socket behind one `Effect.callback`, in the same `Effect.forEach`
 *
 * Slices of each alternate so drift hits all alike; prints the median process CPU µs per call, and
 * beside it Redis's own CPU per call (`INFO cpu` of the whole redis-server, read around each slice).
 * REDIS_URL (redis://127.0.0.1:6379).
 *
 *   MICRO_SLICES (9)  MICRO_CALLS (20000, per slice)  MICRO_CONCURRENCY (50)  MICRO_ONLY=name,name
 */
import { createRequire } from "node:module"
import * as net from "node:net"
import * as path from "node:path"
import { RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import * as RouteCountScript from "@veche/ratelimit/RouteCountScript"
import * as RedisRateLimits from "@veche/redis/RedisRateLimits"
import { Effect, Layer, Redacted, Scope } from "effect"
import { Redis } from "effect/persistence"

const SLICES = Number(process.env.MICRO_SLICES ?? 9)
const CALLS = Number(process.env.MICRO_CALLS ?? 20_000)
const CONCURRENCY = Number(process.env.MICRO_CONCURRENCY ?? 50)
const ONLY = process.env.MICRO_ONLY?.split(",")
const URL_ = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379")
const PREFIX = `bench-micro:${process.pid}:`

// node-redis as the Redis adapter has it (not one of the root's dependencies).
const ADAPTER = path.resolve(import.meta.dirname, "../adapters/redis")
const requireFromAdapter = createRequire(path.join(ADAPTER, "package.json"))
// The little of node-redis used here (the root has no dependency on it, so no types either).
interface NodeRedisClient {
  readonly connect: () => Promise<unknown>
  readonly close: () => Promise<void>
  readonly sendCommand: (args: ReadonlyArray<string>) => Promise<unknown>
}
const nodeRedis: {
  createClient: (options: { url: string; RESP?: 2 | 3; commandOptions?: { timeout?: number } }) => NodeRedisClient
} = requireFromAdapter("redis")

const UNREACHABLE = { limit: 1_000_000_000, windowMs: 1_000 }
const args = (i: number): Array<string> => [
  "2",
  `${PREFIX}g:t:caller${i % 50}`,
  `${PREFIX}b:default:-:t:caller${i % 50}`,
  ...RouteCountScript.argsOf(UNREACHABLE),
  ...RouteCountScript.argsOf(UNREACHABLE)
]

/** Runs `call` CALLS times with CONCURRENCY in flight; resolves when all answered. */
const inFlight = async (call: (i: number) => Promise<unknown>) => {
  let next = 0
  const worker = async () => {
    while (next < CALLS) await call(next++)
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
}

/** A bare RESP client: one socket, commands written as strings, `*3` integer-array replies counted off. */
const rawClient = async () => {
  const socket = net.connect(Number(URL_.port || 6379), URL_.hostname)
  socket.setNoDelay(true)
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject))
  const waiting: Array<{ resolve: (reply: Array<number>) => void; reject: (e: Error) => void }> = []
  let pending = ""
  socket.setEncoding("latin1")
  socket.on("data", (chunk: string) => {
    pending += chunk
    for (;;) {
      if (pending.length === 0) return
      if (pending[0] === "-" || pending[0] === "$" || pending[0] === "+") {
        const end = pending.indexOf("\r\n")
        if (end < 0) return
        const line = pending.slice(0, end)
        if (pending[0] === "$") {
          const len = Number(line.slice(1))
          if (pending.length < end + 2 + len + 2) return
          const value = pending.slice(end + 2, end + 2 + len)
          pending = pending.slice(end + 4 + len)
          ;(waiting.shift() as { resolve: (r: unknown) => void }).resolve(value)
          continue
        }
        pending = pending.slice(end + 2)
        if (line[0] === "-") waiting.shift()?.reject(new Error(line))
        else (waiting.shift() as { resolve: (r: unknown) => void }).resolve(line.slice(1))
        continue
      }
      // *3\r\n:a\r\n:b\r\n:c\r\n
      let at = pending.indexOf("\r\n")
      if (at < 0) return
      const values: Array<number> = []
      for (let k = 0; k < 3; k++) {
        const end = pending.indexOf("\r\n", at + 2)
        if (end < 0) return
        values.push(Number(pending.slice(at + 3, end)))
        at = end
      }
      pending = pending.slice(at + 2)
      waiting.shift()?.resolve(values)
    }
  })
  // Commands of one tick go out in one write, as node-redis batches them.
  let out = ""
  const flush = () => {
    socket.write(out)
    out = ""
  }
  const send = (command: ReadonlyArray<string>) =>
    new Promise<unknown>((resolve, reject) => {
      if (out === "") process.nextTick(flush)
      out += `*${command.length}\r\n`
      for (const part of command) out += `$${Buffer.byteLength(part)}\r\n${part}\r\n`
      waiting.push({ resolve: resolve as (r: Array<number>) => void, reject })
    })
  return { send, close: () => socket.destroy() }
}

const main = async () => {
  const raw = await rawClient()
  const sha = (await raw.send(["SCRIPT", "LOAD", RouteCountScript.lua])) as string
  const resp2 = nodeRedis.createClient({ url: URL_.href })
  await resp2.connect()
  const resp3 = nodeRedis.createClient({ url: URL_.href, RESP: 3 })
  await resp3.connect()
  // node-redis 6 arms an AbortSignal.timeout (5 s) for every command unless told otherwise.
  const untimed = nodeRedis.createClient({ url: URL_.href, commandOptions: { timeout: 0 } })
  await untimed.connect()

  const scope = Scope.makeUnsafe()
  const services = await Effect.runPromise(
    Layer.buildWithScope(
      RouteLimiter.RouteLimiter.layerRedis({ prefix: PREFIX }).pipe(
        Layer.provideMerge(RedisRateLimits.connection({ url: Redacted.make(URL_.href) })),
        Layer.provideMerge(RouteBuckets.RouteBuckets.layer({ global: UNREACHABLE, buckets: { default: UNREACHABLE } }))
      ),
      scope
    )
  )
  const redis = services.mapUnsafe.get(Redis.Redis.key) as Redis.Redis["Service"]
  const limiter = services.mapUnsafe.get(RouteLimiter.RouteLimiter.key) as RouteLimiter.RouteLimiter["Service"]

  const preparedOne = limiter.prepare({ route: "bench.micro", majorId: undefined, caller: "t:caller" })

  const forEach = <E>(call: (i: number) => Effect.Effect<unknown, E>) =>
    Effect.runPromise(
      Effect.forEach(
        Array.from({ length: CALLS }, (_, i) => i),
        call,
        { concurrency: CONCURRENCY, discard: true }
      )
    )
  const sides: Record<string, () => Promise<unknown>> = {
    raw: () => inFlight((i) => raw.send(["EVALSHA", sha, ...args(i)])),
    "node-redis": () => inFlight((i) => resp2.sendCommand(["EVALSHA", sha, ...args(i)])),
    resp3: () => inFlight((i) => resp3.sendCommand(["EVALSHA", sha, ...args(i)])),
    untimed: () => inFlight((i) => untimed.sendCommand(["EVALSHA", sha, ...args(i)])),
    // The same deadline kept by a plain timer per command, cleared on the reply.
    "own-timer": () =>
      inFlight((i) => {
        const timer = setTimeout(() => {}, 5000)
        return untimed.sendCommand(["EVALSHA", sha, ...args(i)]).finally(() => clearTimeout(timer))
      }),
    "effect-raw": () =>
      forEach((i) =>
        Effect.callback<unknown>((resume) => {
          raw.send(["EVALSHA", sha, ...args(i)]).then((reply) => resume(Effect.succeed(reply)))
        })
      ),
    effect: () => forEach((i) => redis.send("EVALSHA", sha, ...args(i))),
    limiter: () =>
      forEach((i) => limiter.check({ route: "bench.micro", majorId: undefined, caller: `t:caller${i % 50}` })),
    "limiter-1": () => forEach(() => limiter.check({ route: "bench.micro", majorId: undefined, caller: "t:caller" })),
    // One caller's prepared check (`RouteLimiter.prepare`), as the middleware keeps one per client address.
    "prepared-1": () => forEach(() => preparedOne)
  }
  const redisCpuUs = async () => {
    const info = String(await raw.send(["INFO", "cpu"]))
    const field = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN)
    return (field("used_cpu_user") + field("used_cpu_sys")) * 1e6
  }
  const names = Object.keys(sides).filter((name) => ONLY === undefined || ONLY.includes(name))
  const cpu: Record<string, Array<number>> = Object.fromEntries(names.map((name) => [name, []]))
  const redisCpu: Record<string, Array<number>> = Object.fromEntries(names.map((name) => [name, []]))
  for (const name of names) await sides[name]?.() // warm-up
  for (let slice = 0; slice < SLICES; slice++) {
    for (const name of slice % 2 === 0 ? names : [...names].reverse()) {
      const redisBefore = await redisCpuUs()
      const before = process.cpuUsage()
      await sides[name]?.()
      const used = process.cpuUsage(before)
      cpu[name]?.push((used.user + used.system) / CALLS)
      redisCpu[name]?.push(((await redisCpuUs()) - redisBefore) / CALLS)
    }
  }
  const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN
  for (const name of names) {
    const xs = cpu[name] ?? []
    const rs = redisCpu[name] ?? []
    console.log(
      `${name.padEnd(11)} ${median(xs).toFixed(1).padStart(6)} µs/call  [${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}]` +
        `  Redis ${median(rs).toFixed(1).padStart(5)} µs/call  [${Math.min(...rs).toFixed(1)}–${Math.max(...rs).toFixed(1)}]`
    )
  }
  raw.close()
  await resp2.close()
  await resp3.close()
  await untimed.close()
  await Effect.runPromise(Scope.close(scope, Effect.void as never))
  await new Promise((resolve) => resolve(undefined))
  process.exit(0)
}

await main()
