/**
 * `node bench/limiter-micro.ts`: what the route limiter (memory store) costs a routed request in
 * process, without sockets, Node's header writing or the kernel: two test hosts (the edge, the
 * routes, the limiter in memory with limits no load reaches, against limits off) answer
 * `GET /api/v10/version?limit=1` (routed: the edge's compiled answers leave a query to the app), CORS
 * configured as the bench's servers have it (the origin of their `SERVICE_WEB_URL`), in
 * alternating slices, each slice `MICRO_IN_FLIGHT` requests at a time, so a drifting machine hits
 * both alike. Prints the median main-thread CPU µs per request of each side and their difference.
 * The bench's limiter row measures the same two configurations as servers.
 *
 *   MICRO_SLICES (24)  MICRO_REQUESTS (4000, per slice)  MICRO_IN_FLIGHT (50)  MICRO_PATH
 *   MICRO_BEARER=1  each host registers an account and every request carries its access token (a
 *   bot's or an app's calls: counted by the token once it has authenticated); with it the path
 *   defaults to `/api/v10/users/@me`
 *   MICRO_ONLY=on|off  load one side only (to profile it: `node --cpu-prof bench/limiter-micro.ts`)
 */
import { TestHost } from "@veche/test-host"
import { Context, Effect, Layer, Scope } from "effect"
import * as Accounts from "./lib/Accounts.ts"
import * as Load from "./lib/Load.ts"

const SLICES = Number(process.env.MICRO_SLICES ?? 24)
const REQUESTS = Number(process.env.MICRO_REQUESTS ?? 4000)
const IN_FLIGHT = Number(process.env.MICRO_IN_FLIGHT ?? 50)
const BEARER = process.env.MICRO_BEARER === "1"
const PATH = process.env.MICRO_PATH ?? (BEARER ? "/api/v10/users/@me" : "/api/v10/version?limit=1")
const ONLY = process.env.MICRO_ONLY
const UNREACHABLE = { limit: 1_000_000_000, windowMs: 1_000 }

type Fetch = (path: string) => Promise<Response>

/** As bench/lib/ServerEnv.ts's SERVICE_WEB_URL makes them. */
const CORS_ORIGINS = ["http://localhost:3000"]

const hostOf = async (rateLimits: NonNullable<Parameters<typeof TestHost.layer>[0]>["rateLimits"]): Promise<Fetch> => {
  const scope = Scope.makeUnsafe()
  const host = TestHost.layer({ rateLimits, corsOrigins: CORS_ORIGINS })
  const context = await Effect.runPromise(Layer.buildWithScope(host, scope))
  const { fetchPromise } = Context.get(context, TestHost.TestHost)
  if (!BEARER) return (path) => fetchPromise(path)
  // Registered as the bench registers its accounts, through this host's routes.
  const pair = await Accounts.register((route, init) => fetchPromise(`/api/v10${route}`, init), 0)
  const headers = { authorization: `Bearer ${pair.access_token}` }
  return (path) => fetchPromise(path, { headers })
}

const sides: Array<{ readonly name: string; readonly fetch: Fetch; readonly micros: Array<number> }> = [
  {
    name: "limiter on",
    fetch: await hostOf({
      enabled: true,
      global: UNREACHABLE,
      buckets: { version: UNREACHABLE, default: UNREACHABLE }
    }),
    micros: []
  },
  { name: "limits off", fetch: await hostOf({ enabled: false }), micros: [] }
]

/** `count` requests, `IN_FLIGHT` at a time; every answer must be a 200 with the limiter's headers as configured. */
const slice = async (fetch: Fetch, count: number): Promise<void> => {
  let next = 0
  const worker = async () => {
    while (next < count) {
      next++
      const response = await fetch(PATH)
      if (response.status !== 200) throw new Error(`${PATH} answered ${response.status}`)
      await response.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
}

for (const side of sides) await slice(side.fetch, REQUESTS * 2) // warm-up
const [on, off] = sides
if (on === undefined || off === undefined) throw new Error("two sides")
const limited = await on.fetch(PATH)
if (limited.headers.get("x-ratelimit-bucket") === null) throw new Error("the limited host sent no limiter headers")

for (let index = 0; index < SLICES; index++) {
  const order = index % 2 === 0 ? sides : [...sides].reverse()
  for (const side of order) {
    if (ONLY !== undefined && side !== (ONLY === "on" ? on : off)) continue
    const before = process.threadCpuUsage()
    await slice(side.fetch, REQUESTS)
    const used = process.threadCpuUsage(before)
    side.micros.push((used.user + used.system) / REQUESTS)
  }
}

if (ONLY !== undefined) {
  const side = ONLY === "on" ? on : off
  console.log(`${PATH}: ${side.name} ${Load.median(side.micros).toFixed(2)} µs/request`)
  process.exit(0) // the test hosts' workers would keep the process alive; nothing of theirs needs closing
}
let cheaper = 0
on.micros.forEach((micros, index) => {
  if (micros < (off.micros[index] ?? 0)) cheaper++
})
const [a, b] = [Load.median(on.micros), Load.median(off.micros)]
console.log(
  `${PATH}: ${on.name} ${a.toFixed(2)} µs/request, ${off.name} ${b.toFixed(2)}; difference ${(a - b).toFixed(2)} µs ` +
    `(${((b / a) * 100).toFixed(1)} % of limits off's throughput); ${on.name} cheaper in ${cheaper} of ${SLICES} slices`
)
process.exit(0)
