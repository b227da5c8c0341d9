import { execFile } from "node:child_process"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { afterEach } from "vitest"
import * as Argon2PasswordHasher from "../src/Argon2PasswordHasher.ts"
import * as HashThreads from "../src/HashThreads.ts"

const bytes = (text: string) => new TextEncoder().encode(text)
const CHEAP = Argon2PasswordHasher.TEST_PARAMS

const opened: Array<HashThreads.HashThreads> = []
const open = (threads: number) => {
  const made = HashThreads.make(threads)
  opened.push(made)
  return made
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((threads) => threads.close()))
})

describe("HashThreads", () => {
  it("starts its threads at the first call and answers as the library does on libuv's pool", async () => {
    const threads = open(2)
    expect(threads.running()).toBe(0)
    const phc = await threads.hash(bytes("correct horse battery"), CHEAP)
    expect(threads.running()).toBe(2)
    expect(phc).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
    // each side verifies the other's hashes
    expect(await Argon2PasswordHasher.nativeBackend.verify(phc, bytes("correct horse battery"))).toBe(true)
    const native = await Argon2PasswordHasher.nativeBackend.hash(bytes("pässwörd"), CHEAP)
    expect(await threads.verify(native, bytes("pässwörd"))).toBe(true)
    expect(await threads.verify(native, bytes("passwörd"))).toBe(false)
    expect(await threads.verify(phc, bytes("correct horse batterz"))).toBe(false)
    expect(threads.inFlight()).toBe(0)
  })

  it("spreads calls over its threads, the one with the fewest waiting first", async () => {
    const threads = open(3)
    expect(threads.permits).toBe(6)
    const phc = await Argon2PasswordHasher.nativeBackend.hash(bytes("secret"), CHEAP)
    const first = threads.verify(phc, bytes("secret"))
    expect(threads.load()).toEqual([1, 0, 0])
    const answers = Array.from({ length: 8 }, (_, i) => threads.verify(phc, bytes(i % 3 === 2 ? "secret" : "wrong")))
    // all handed over at once, none answered yet: three a thread
    expect(threads.load()).toEqual([3, 3, 3])
    expect(threads.inFlight()).toBe(9)
    expect(await first).toBe(true)
    expect(await Promise.all(answers)).toEqual([false, false, true, false, false, true, false, false])
    expect(threads.load()).toEqual([0, 0, 0])
    expect(threads.inFlight()).toBe(0)
  })

  it("rejects a call the library refuses, and the thread goes on", async () => {
    const threads = open(1)
    await expect(threads.verify("not a phc string", bytes("secret"))).rejects.toThrow(/^argon2: /)
    const phc = await threads.hash(bytes("secret"), CHEAP)
    expect(await threads.verify(phc, bytes("secret"))).toBe(true)
    expect(threads.inFlight()).toBe(0)
  })

  it("fails the calls still waiting when closed, and starts again at the next", async () => {
    const threads = open(1)
    // Verifies of ≈0.3 s or more each: none can be answered before the close below stops the thread.
    const slow = await Argon2PasswordHasher.nativeBackend.hash(bytes("secret"), {
      ...Argon2PasswordHasher.DEFAULT_PARAMS,
      timeCost: 60
    })
    const waiting = [threads.verify(slow, bytes("secret")), threads.verify(slow, bytes("secret"))]
    await threads.close()
    for (const answer of waiting) await expect(answer).rejects.toThrow(/hash thread exited/)
    expect(threads.running()).toBe(0)
    expect(threads.inFlight()).toBe(0)
    expect(await threads.verify(await threads.hash(bytes("again"), CHEAP), bytes("again"))).toBe(true)
    expect(threads.running()).toBe(1)
  })

  it("lets the process end once closed, even with an answer on its way", async () => {
    // An answer that comes after close began but before the thread exited must not unreference the
    // thread: the process would end with close's promise unsettled (exit code 13).
    const module = path.resolve(import.meta.dirname, "../src/HashThreads.ts")
    const script = `
      const HashThreads = await import(${JSON.stringify(module)})
      const threads = HashThreads.make(1)
      const params = { memoryCost: 1024, timeCost: 1, parallelism: 1 }
      const phc = await threads.hash(new TextEncoder().encode("secret"), params)
      const answer = threads.verify(phc, new TextEncoder().encode("secret")).catch(() => "rejected")
      const until = Date.now() + 50
      while (Date.now() < until) {} // the answer is sent meanwhile
      await threads.close()
      console.log("closed", await answer)
    `
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 20_000
    })
    expect(stdout).toMatch(/^closed (true|rejected)$/m)
  }, 30_000)

  it("refuses a thread count that is not a positive integer", () => {
    for (const threads of [0, -1, 1.5, Number.NaN]) expect(() => HashThreads.make(threads)).toThrow(/positive integer/)
  })

  it("keeps the process alive while a call waits, and not once it is answered", async () => {
    // A script that hashes and then has nothing left to do: it must print the hash (the thread kept
    // it alive) and then exit on its own (idle threads do not), well before the timeout.
    const module = path.resolve(import.meta.dirname, "../src/HashThreads.ts")
    const script = `
      const HashThreads = await import(${JSON.stringify(module)})
      const threads = HashThreads.make(2)
      threads.hash(new TextEncoder().encode("secret"), { memoryCost: 1024, timeCost: 1, parallelism: 1 })
        .then((phc) => console.log(phc))
    `
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      timeout: 20_000
    })
    expect(stdout).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
  }, 30_000)
})
