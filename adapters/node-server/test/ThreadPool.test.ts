import { availableParallelism } from "node:os"
import { describe, expect, it } from "@effect/vitest"
import * as ThreadPool from "../src/ThreadPool.ts"

const cpus = availableParallelism()

describe("ThreadPool", () => {
  it("gives each hash and each image allowed at once a thread, and two more", () => {
    // the hashes one more than the CPUs (what the hasher then runs), the images the CPUs
    expect(ThreadPool.size({})).toBe(cpus + 1 + cpus + 2)
    expect(ThreadPool.size({ SERVICE_PASSWORD_HASH_CONCURRENCY: "6", SERVICE_MEDIA_CONCURRENCY: "1" })).toBe(9)
    // a setting the layers will refuse counts as unset here (the server then stops on it anyway)
    expect(ThreadPool.size({ SERVICE_PASSWORD_HASH_CONCURRENCY: "0", SERVICE_MEDIA_CONCURRENCY: "x" })).toBe(
      cpus + 1 + cpus + 2
    )
    // libuv's own bound
    expect(ThreadPool.size({ SERVICE_PASSWORD_HASH_CONCURRENCY: "5000" })).toBe(1024)
  })

  it("sets UV_THREADPOOL_SIZE only when the operator has not", () => {
    const unset: Record<string, string | undefined> = { SERVICE_PASSWORD_HASH_CONCURRENCY: "3" }
    ThreadPool.configure(unset)
    expect(unset.UV_THREADPOOL_SIZE).toBe(String(3 + cpus + 2))
    const blank: Record<string, string | undefined> = { UV_THREADPOOL_SIZE: " ", SERVICE_MEDIA_CONCURRENCY: "2" }
    ThreadPool.configure(blank)
    expect(blank.UV_THREADPOOL_SIZE).toBe(String(cpus + 1 + 2 + 2))
    const own: Record<string, string | undefined> = { UV_THREADPOOL_SIZE: "16" }
    ThreadPool.configure(own)
    expect(own.UV_THREADPOOL_SIZE).toBe("16")
  })
})
