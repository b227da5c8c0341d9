/**
 * `node bench/wake-cost.ts`: the CPU this machine charges a thread each time it wakes from idle,
 * apart from any work of ours. A request that waits on PostgreSQL, Redis or the argon2id pool lets
 * the main thread sleep in `epoll_wait` and wake again; on a virtual machine each such wake-up can
 * cost far more than the code it runs, and it is counted as the process's CPU (issue 22's login and
 * Redis-limiter rows). Three loops, each over the same count, on this thread's CPU
 * (`process.threadCpuUsage`, user + system):
 *
 *   immediate   `setImmediate` in a row: a turn of the event loop without sleeping (the floor)
 *   sleep N ms  a timer of N ms, one after another: a sleep and a wake-up each
 *   ping-pong   a TCP round trip over loopback to a child process that answers at once: the
 *               server's side of one database or Redis round trip, on which both ends sleep
 *   ping-pong × 50  50 messages a round trip, per message: what batching a turn's counts saves
 *
 *   WAKE_ROUNDS (3)  WAKE_SLEEPS_MS (0.2,1,5,12)
 */
import { fork } from "node:child_process"
import * as net from "node:net"

const ROUNDS = Number(process.env.WAKE_ROUNDS ?? 3)
const SLEEPS = (process.env.WAKE_SLEEPS_MS ?? "0.2,1,5,12").split(",").map(Number)

if (process.argv[2] === "echo") {
  // The child: answers each byte with a byte, at once.
  const server = net.createServer((socket) => {
    socket.setNoDelay(true)
    socket.on("data", (chunk) => socket.write(chunk))
  })
  server.listen(0, "127.0.0.1", () => {
    const address = server.address()
    process.send?.(typeof address === "object" && address !== null ? address.port : 0)
  })
} else {
  const cpuOf = async (times: number, step: () => Promise<unknown>) => {
    const before = process.threadCpuUsage()
    const began = performance.now()
    for (let i = 0; i < times; i++) await step()
    const used = process.threadCpuUsage(before)
    return {
      cpu: (used.user + used.system) / times,
      system: used.system / times,
      wall: ((performance.now() - began) * 1000) / times
    }
  }
  const line = (name: string, result: { cpu: number; system: number; wall: number }) =>
    process.stdout.write(
      `${name.padEnd(16)} ${result.cpu.toFixed(1).padStart(7)} µs CPU a wake-up (system ${result.system.toFixed(1)}), ${result.wall.toFixed(0)} µs apart\n`
    )

  const child = fork(import.meta.filename, ["echo"], { stdio: "inherit" })
  const port = await new Promise<number>((resolve) => child.once("message", (message) => resolve(Number(message))))
  const socket = net.connect(port, "127.0.0.1")
  socket.setNoDelay(true)
  await new Promise((resolve) => socket.once("connect", resolve))
  // `roundTrip(k)`: k bytes written at once, answered when all k are back (the child echoes each
  // chunk it reads): k = 1 is one request waiting alone, k = 50 a batch of the bench's 50 connections.
  let owed = 0
  let answered: (() => void) | undefined
  socket.on("data", (chunk) => {
    owed -= chunk.length
    if (owed <= 0) answered?.()
  })
  const roundTrip = (k: number) => {
    const bytes = Buffer.alloc(k, "x")
    return () =>
      new Promise<void>((resolve) => {
        owed = k
        answered = resolve
        socket.write(bytes)
      })
  }

  for (let round = 1; round <= ROUNDS; round++) {
    process.stdout.write(`round ${round}\n`)
    line("immediate", await cpuOf(20_000, () => new Promise((resolve) => setImmediate(resolve))))
    for (const ms of SLEEPS) {
      line(
        `sleep ${ms} ms`,
        await cpuOf(Math.max(50, Math.round(1_000 / ms)), () => new Promise((resolve) => setTimeout(resolve, ms)))
      )
    }
    line("ping-pong", await cpuOf(5_000, roundTrip(1)))
    const batch = await cpuOf(2_000, roundTrip(50))
    line("ping-pong × 50", { cpu: batch.cpu / 50, system: batch.system / 50, wall: batch.wall / 50 })
  }
  socket.destroy()
  child.kill()
}
