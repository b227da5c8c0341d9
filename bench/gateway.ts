/**
 * `pnpm bench:gateway` (also the gateway rows of `pnpm bench` when BENCH_ONLY names them): the
 * gateway's fan-out and memory on the reference server, as issue 19 asks.
 *
 * - fanout: N sessions (BENCH_SESSIONS, 1000) of one guild, one TYPING_START published through
 *   `POST /channels/{id}/typing` at a time (BENCH_EVENTS, 30): deliveries per second (N over the
 *   time from the publish request to the last delivery) against a plain `ws` server doing the same
 *   (bench/floors/ws-fanout.ts); median ratio, and the p99 from publish to last delivery.
 * - sessions: RSS per idle identified session, MB per 1000: the server's RSS with
 *   BENCH_MEMORY_SESSIONS (3000) sessions open minus its RSS after BENCH_WARMUP_SESSIONS (100)
 *   warm-up sessions (so what the first identifies cost once is not charged to the sessions; the
 *   reading from the cold server is printed beside it), per 1000 of them. Also printed: the same
 *   after the first N (BENCH_SESSIONS) alone, and the step from N to all of them. A burst of
 *   identifies leaves costs that do not grow with the sessions (V8's young generation grown to its
 *   maximum, 16 MB with the server's `--max-semi-space-size=8`, and garbage not yet collected,
 *   up to about a third of the old generation): spread over 1000 sessions they moved the reading
 *   by ±13 MB per 1000 from run to run; over 3000, a third of that. Beside it the same readings
 *   of the `ws` floor with as many idle sockets open to it: what a bare `ws` server costs per
 *   socket here (its floor, not a target). The sessions past the first N close before the fan-out.
 * - send: `POST /channels/{id}/messages` req/s and p99 (autocannon, BENCH_CONNECTIONS 50, for
 *   BENCH_SECONDS 10) while 100 sessions of the guild listen (each message reaches all of them).
 *
 * BENCH_HEAP_SNAPSHOT_DIR=<dir>: the server writes a V8 heap snapshot there once the sessions are
 * open (before the fan-out), to see what an idle session keeps. BENCH_SETTLE_MS (2000): the wait
 * between opening the sessions and reading the server's RSS. BENCH_FORCE_GC=1: then a full GC in the
 * server (through its inspector, bench/lib/ForcedGc.ts) and its RSS again, to tell garbage from what
 * the sessions keep.
 *
 * The sessions are one user's (the server started with that user's identify limit lifted; each is a
 * full session with READY and its GUILD_CREATE). Figures on a loaded machine are provisional.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import WebSocket from "ws"
import * as NodeFlags from "../adapters/node-server/src/NodeFlags.ts"
import * as Accounts from "./lib/Accounts.ts"
import * as Database from "./lib/Database.ts"
import * as ForcedGc from "./lib/ForcedGc.ts"
import * as Load from "./lib/Load.ts"
import * as Processes from "./lib/Processes.ts"
import * as ServerEnv from "./lib/ServerEnv.ts"

const GATEWAY_SCENARIOS = ["fanout", "sessions", "send"]
const ONLY = (process.env.BENCH_ONLY ?? GATEWAY_SCENARIOS.join(",")).split(",").map((name) => name.trim())
// `pnpm bench` runs bench/run.ts first, which checks the names; here: nothing of ours asked for
if (!ONLY.some((name) => GATEWAY_SCENARIOS.includes(name))) process.exit(0)
const wanted = (name: string) => ONLY.includes(name)
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000)
const EVENTS = Number(process.env.BENCH_EVENTS ?? 30)
const WARMUP_SESSIONS = Number(process.env.BENCH_WARMUP_SESSIONS ?? 100)
const MEMORY_SESSIONS = Math.max(SESSIONS, Number(process.env.BENCH_MEMORY_SESSIONS ?? 3000))
const settle = () => new Promise((resolve) => setTimeout(resolve, Number(process.env.BENCH_SETTLE_MS ?? 2000)))
/** MB per 1000 of `count` sessions, from two RSS readings in MB. */
const perThousandOf = (fromMb: number, toMb: number, count: number) => ((toMb - fromMb) * 1000) / count
const ROOT = path.resolve(import.meta.dirname, "..")
const HEAP_SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR
const FORCE_GC = process.env.BENCH_FORCE_GC === "1"
const dataDir = mkdtempSync(path.join(tmpdir(), "veche-bench-gw-"))
chmodSync(dataDir, 0o755)

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

/** A round whose deliveries have not all arrived by then fails the run (rather than waiting forever). */
const ROUND_TIMEOUT_MS = 60_000
/**
 * Gateway clients heartbeat as real ones do: a run slowed past the heartbeat interval (a loaded
 * machine) would otherwise see its sessions closed, and wait for deliveries to sockets that are gone.
 */
const HEARTBEAT_MS = 15_000

/** N sockets that count TYPING_START deliveries; `round` resolves when every socket got one more. */
const openClients = async (
  url: string,
  count: number,
  identify: ((socket: WebSocket) => Promise<void>) | undefined
) => {
  let delivered = 0
  let wake: (() => void) | undefined
  const sockets: Array<WebSocket> = []
  const heartbeats =
    identify === undefined
      ? undefined
      : setInterval(() => {
          for (const socket of sockets) if (socket.readyState === WebSocket.OPEN) socket.send('{"op":1,"d":null}')
        }, HEARTBEAT_MS)
  for (let first = 0; first < count; first += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - first) }, async () => {
        const socket = new WebSocket(url)
        await new Promise<void>((resolve, reject) => {
          socket.once("open", () => resolve())
          socket.once("error", reject)
        })
        if (identify !== undefined) await identify(socket)
        socket.on("message", (data) => {
          if (String(data).includes('"t":"TYPING_START"')) {
            delivered += 1
            wake?.()
          }
        })
        sockets.push(socket)
      })
    )
  }
  return {
    sockets,
    /** Publishes with `publish` and answers ms from the call to the last socket's delivery. */
    round: async (publish: () => Promise<void>) => {
      const target = delivered + count
      const started = performance.now()
      let timer: NodeJS.Timeout | undefined
      const done = new Promise<void>((resolve, reject) => {
        wake = () => {
          if (delivered >= target) resolve()
        }
        timer = setTimeout(
          () => reject(new Error(`${count - (target - delivered)} of ${count} deliveries in ${ROUND_TIMEOUT_MS} ms`)),
          ROUND_TIMEOUT_MS
        )
      })
      await publish()
      await done.finally(() => clearTimeout(timer))
      return performance.now() - started
    },
    close: () => {
      clearInterval(heartbeats)
      for (const socket of sockets) socket.terminate()
    }
  }
}

const main = async () => {
  const servers: Array<Processes.Running> = []
  const database = await Database.open(path.join(dataDir, "pg"))
  try {
    const port = await Processes.freePort()
    const base = `http://127.0.0.1:${port}`
    const inspectPort = await Processes.freePort()
    const veche = await Processes.start(
      "veche-gateway",
      path.join(ROOT, NodeFlags.WORKSPACE_BIN),
      {
        ...ServerEnv.referenceServer({ port, name: "veche", dataDir, database }),
        SERVICE_ENV: "dev",
        SERVICE_RATE_LIMITS_ENABLED: "false",
        SERVICE_ACCESS_LOG: "false",
        // every session is one user's: their identify limit out of the way
        SERVICE_GATEWAY_USER_IDENTIFY_BURST: "1000000",
        SERVICE_GATEWAY_USER_IDENTIFY_DAILY: "1000000000"
      },
      `${base}/api/v10/version`,
      [
        ...NodeFlags.WORKSPACE_FLAGS,
        ...(HEAP_SNAPSHOT_DIR === undefined
          ? []
          : ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${HEAP_SNAPSHOT_DIR}`]),
        ...(FORCE_GC ? ForcedGc.flags(inspectPort) : [])
      ]
    )
    servers.push(veche)
    const floorPort = await Processes.freePort()
    const floorInspectPort = await Processes.freePort()
    const floor = await Processes.start(
      "ws-floor",
      path.join(ROOT, "bench/floors/ws-fanout.ts"),
      { PORT: String(floorPort) },
      `http://127.0.0.1:${floorPort}/ready`,
      FORCE_GC ? ForcedGc.flags(floorInspectPort) : []
    )
    servers.push(floor)

    const { access_token: token } = await Accounts.register(base, 0)
    const api = (method: string, route: string, body?: unknown) =>
      fetch(`${base}/api/v10${route}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    const guild = (await (await api("POST", "/guilds", { name: "Bench Guild" })).json()) as {
      system_channel_id: string
    }

    const identify = (socket: WebSocket) =>
      new Promise<void>((resolve) => {
        const onMessage = (data: WebSocket.RawData) => {
          if (String(data).includes('"t":"GUILD_CREATE"')) {
            socket.off("message", onMessage)
            resolve()
          }
        }
        socket.on("message", onMessage)
        socket.send(
          JSON.stringify({
            op: 2,
            d: { token, intents: (1 << 0) | (1 << 11), properties: { os: "bench", browser: "bench", device: "bench" } }
          })
        )
      })
    // Warm-up sessions before the idle reading: what the first identifies cost once (the identify
    // path's compiled code, V8's compiler and GC threads' malloc arenas, the heap's first growth) is
    // not a session's. Kept open while the sessions are read; closed before the fan-out. The cold
    // reading (the server before any session) is printed beside it.
    const coldMb = await veche.rssMb()
    const warm = await openClients(`ws://127.0.0.1:${port}/gateway?v=10&encoding=json`, WARMUP_SESSIONS, identify)
    await settle()
    // with BENCH_FORCE_GC both readings follow a full GC (the inspector, opened by the first, in both)
    if (FORCE_GC) await ForcedGc.collect(veche.pid, inspectPort)
    const idleGcMb = FORCE_GC ? await veche.rssMb() : 0
    const idleMb = await veche.rssMb()
    const ours = await openClients(`ws://127.0.0.1:${port}/gateway?v=10&encoding=json`, SESSIONS, identify)
    await settle()
    const withSessionsMb = await veche.rssMb()
    // the sessions past the first N, for the memory row only
    let oursMore: Awaited<ReturnType<typeof openClients>> | undefined
    let withAllSessionsMb = withSessionsMb
    if (wanted("sessions") && MEMORY_SESSIONS > SESSIONS) {
      oursMore = await openClients(
        `ws://127.0.0.1:${port}/gateway?v=10&encoding=json`,
        MEMORY_SESSIONS - SESSIONS,
        identify
      )
      await settle()
      withAllSessionsMb = await veche.rssMb()
    }
    if (FORCE_GC) {
      // what of that RSS was garbage not yet collected (the sessions themselves stay)
      await ForcedGc.collect(veche.pid, inspectPort)
      const afterGcMb = await veche.rssMb()
      console.log(
        `RSS after a forced full GC: ${idleGcMb} → ${afterGcMb} MB, ${perThousandOf(idleGcMb, afterGcMb, MEMORY_SESSIONS).toFixed(1)} MB per 1000 (before it: ${withAllSessionsMb} MB)`
      )
    }
    if (HEAP_SNAPSHOT_DIR !== undefined) {
      process.kill(veche.pid, "SIGUSR2")
      // the snapshot is written synchronously by the server's main thread: wait until it answers again
      await new Promise((resolve) => setTimeout(resolve, 500))
      await fetch(`${base}/api/v10/version`)
      console.log(`heap snapshot written to ${HEAP_SNAPSHOT_DIR}`)
    }
    // The floor's own cost of N idle sockets, read the same way (after the same settle; with
    // BENCH_FORCE_GC also after a full GC before each reading). Its sockets serve the fan-out below.
    let theirs: Awaited<ReturnType<typeof openClients>> | undefined
    let floorLine = ""
    if (wanted("sessions") || wanted("fanout")) {
      const floorColdMb = await floor.rssMb()
      const floorWarm = await openClients(`ws://127.0.0.1:${floorPort}/gateway`, WARMUP_SESSIONS, undefined)
      if (wanted("sessions")) await settle()
      if (wanted("sessions") && FORCE_GC) await ForcedGc.collect(floor.pid, floorInspectPort)
      const floorIdleMb = await floor.rssMb()
      theirs = await openClients(`ws://127.0.0.1:${floorPort}/gateway`, SESSIONS, undefined)
      if (wanted("sessions")) {
        await settle()
        const floorOpenMb = await floor.rssMb()
        const floorMore =
          MEMORY_SESSIONS > SESSIONS
            ? await openClients(`ws://127.0.0.1:${floorPort}/gateway`, MEMORY_SESSIONS - SESSIONS, undefined)
            : undefined
        if (floorMore !== undefined) await settle()
        const floorAllMb = await floor.rssMb()
        floorLine = `${perThousandOf(floorIdleMb, floorAllMb, MEMORY_SESSIONS).toFixed(1)} MB per 1000 (floor ${floorIdleMb} → ${floorAllMb} MB; ${SESSIONS} sockets alone ${perThousandOf(floorIdleMb, floorOpenMb, SESSIONS).toFixed(1)}; from cold ${floorColdMb} MB: ${perThousandOf(floorColdMb, floorAllMb, MEMORY_SESSIONS + WARMUP_SESSIONS).toFixed(1)})`
        if (FORCE_GC) {
          await ForcedGc.collect(floor.pid, floorInspectPort)
          const floorGcMb = await floor.rssMb()
          console.log(
            `floor RSS after a forced full GC: ${floorIdleMb} → ${floorGcMb} MB, ${perThousandOf(floorIdleMb, floorGcMb, MEMORY_SESSIONS).toFixed(1)} MB per 1000`
          )
        }
        floorMore?.close()
      }
      floorWarm.close()
    }
    warm.close()
    oursMore?.close()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    console.log(`\nVeche gateway bench: ${SESSIONS} sessions of one guild, ${EVENTS} events (median; p99)\n`)
    console.log("| scenario | Veche | floor | ratio | p99 publish→last delivery | target |")
    console.log("|---|---|---|---|---|---|")

    if (wanted("fanout") && theirs !== undefined) {
      const typing = async () => {
        const answer = await api("POST", `/channels/${guild.system_channel_id}/typing`)
        if (answer.status !== 204) throw new Error(`typing answered ${answer.status}`)
      }
      const publishFloor = async () => {
        await fetch(`http://127.0.0.1:${floorPort}/publish`, { method: "POST" })
      }
      // warm-up, then alternating rounds so drift hits both alike
      for (let i = 0; i < 3; i++) {
        await ours.round(typing)
        await theirs.round(publishFloor)
      }
      const oursMs: Array<number> = []
      const theirsMs: Array<number> = []
      for (let i = 0; i < EVENTS; i++) {
        oursMs.push(await ours.round(typing))
        theirsMs.push(await theirs.round(publishFloor))
      }
      const rate = (ms: number) => SESSIONS / (ms / 1000)
      const oursRate = rate(percentile(oursMs, 50))
      const theirsRate = rate(percentile(theirsMs, 50))
      console.log(
        `| fan-out: one TYPING_START to ${SESSIONS} sockets (floor: plain ws broadcast) | ${Math.round(oursRate)} deliveries/s | ${Math.round(theirsRate)} deliveries/s | ${(oursRate / theirsRate).toFixed(2)} | ${percentile(oursMs, 99).toFixed(1)} ms (floor ${percentile(theirsMs, 99).toFixed(1)} ms) | ≥ 0.80 |`
      )
    }
    if (wanted("sessions")) {
      const perThousand = perThousandOf(idleMb, withAllSessionsMb, MEMORY_SESSIONS)
      const steps =
        MEMORY_SESSIONS > SESSIONS
          ? `; ${SESSIONS} sessions alone ${perThousandOf(idleMb, withSessionsMb, SESSIONS).toFixed(1)}, the next ${MEMORY_SESSIONS - SESSIONS} ${perThousandOf(withSessionsMb, withAllSessionsMb, MEMORY_SESSIONS - SESSIONS).toFixed(1)}`
          : ""
      console.log(
        `| memory: RSS per idle identified session, ${MEMORY_SESSIONS} sessions after ${WARMUP_SESSIONS} warm-up ones (floor: idle plain ws sockets) | ${perThousand.toFixed(1)} MB per 1000 (server ${idleMb} → ${withAllSessionsMb} MB${steps}; from cold ${coldMb} MB: ${perThousandOf(coldMb, withAllSessionsMb, MEMORY_SESSIONS + WARMUP_SESSIONS).toFixed(1)}) | ${floorLine} | | | ≤ 30 MB per 1000: ${perThousand <= 30 ? "met" : "NOT met"} |`
      )
    }
    if (wanted("send")) {
      // message send with 100 listening sessions: the others go first
      for (const socket of ours.sockets.slice(100)) socket.terminate()
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const send = await Load.run(`${base}/api/v10/channels/${guild.system_channel_id}/messages`, {
        connections: Number(process.env.BENCH_CONNECTIONS ?? 50),
        seconds: Number(process.env.BENCH_SECONDS ?? 10),
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        json: { content: "bench message" }
      })
      console.log(
        `| message send: POST /channels/{id}/messages with 100 listening sessions | ${Math.round(send.rps)} req/s, p99 ${send.p99Ms} ms (errors ${send.errors}, non-2xx ${send.non2xx}) | | | | report |`
      )
    }
    ours.close()
    theirs?.close()
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await Processes.runMain(main)
