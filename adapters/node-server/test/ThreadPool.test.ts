import { availableParallelism } from "node:os"
import { describe, expect, it } from "@effect/vitest"
import * as ThreadPool from "../src/ThreadPool.ts"

const cpus = availableParallelism()

describe("ThreadPool", () => {
  it("gives each image allowed at once a thread and two more, never fewer than libuv's 4", () => {
    // the images the CPUs by default; the hashes have threads of their own and take none
    expect(ThreadPool.size({})).toBe(Math.max(4, cpus + 2))
    expect(ThreadPool.size({ SERVICE_MEDIA_CONCURRENCY: "7" })).toBe(9)
    expect(ThreadPool.size({ SERVICE_MEDIA_CONCURRENCY: "1" })).toBe(4)
    expect(ThreadPool.size({ SERVICE_PASSWORD_HASH_CONCURRENCY: "64", SERVICE_MEDIA_CONCURRENCY: "7" })).toBe(9)
    // a setting the layer will refuse counts as unset here (the server then stops on it anyway)
    expect(ThreadPool.size({ SERVICE_MEDIA_CONCURRENCY: "x" })).toBe(Math.max(4, cpus + 2))
    // libuv's own bound
    expect(ThreadPool.size({ SERVICE_MEDIA_CONCURRENCY: "5000" })).toBe(1024)
  })

  it("sets UV_THREADPOOL_SIZE only when the operator has not", () => {
    const unset: Record<string, string | undefined> = { SERVICE_MEDIA_CONCURRENCY: "6" }
    ThreadPool.configure(unset)
    expect(unset.UV_THREADPOOL_SIZE).toBe("8")
    const blank: Record<string, string | undefined> = { UV_THREADPOOL_SIZE: " ", SERVICE_MEDIA_CONCURRENCY: "3" }
    ThreadPool.configure(blank)
    expect(blank.UV_THREADPOOL_SIZE).toBe("5")
    const own: Record<string, string | undefined> = { UV_THREADPOOL_SIZE: "16" }
    ThreadPool.configure(own)
    expect(own.UV_THREADPOOL_SIZE).toBe("16")
  })
})
