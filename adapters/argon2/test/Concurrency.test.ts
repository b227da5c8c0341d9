import { availableParallelism } from "node:os"
import { describe, expect, it } from "@effect/vitest"
import * as Concurrency from "../src/Concurrency.ts"

const cpus = availableParallelism()

describe("Concurrency", () => {
  it("reads libuv's pool size as libuv does: 4 unless set, at least 1, at most 1024", () => {
    expect(Concurrency.threadPoolSize({})).toBe(4)
    expect(Concurrency.threadPoolSize({ UV_THREADPOOL_SIZE: "" })).toBe(4)
    expect(Concurrency.threadPoolSize({ UV_THREADPOOL_SIZE: "9" })).toBe(9)
    expect(Concurrency.threadPoolSize({ UV_THREADPOOL_SIZE: "0" })).toBe(1)
    expect(Concurrency.threadPoolSize({ UV_THREADPOOL_SIZE: "5000" })).toBe(1024)
  })

  it("defaults to a hash thread a CPU", () => {
    expect(Concurrency.forTheCpus()).toBe(cpus)
  })

  it("on libuv's pool, one more hash than the CPUs, leaving a thread of the pool to everything else", () => {
    // a pool sized for it
    expect(Concurrency.poolConcurrency({ UV_THREADPOOL_SIZE: String(cpus + 2 + cpus) })).toBe(cpus + 1)
    // libuv's own 4: at most 3
    expect(Concurrency.poolConcurrency({})).toBe(Math.min(cpus + 1, 3))
    // a pool of one or two threads: still one hash at a time
    expect(Concurrency.poolConcurrency({ UV_THREADPOOL_SIZE: "1" })).toBe(1)
    expect(Concurrency.poolConcurrency({ UV_THREADPOOL_SIZE: "2" })).toBe(1)
  })
})
