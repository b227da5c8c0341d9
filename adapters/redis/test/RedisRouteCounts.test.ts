import { describe, expect, it } from "@effect/vitest"
import * as RedisRateLimits from "../src/RedisRateLimits.ts"

/** A client whose answer the test settles by hand; records the options each command was sent with. */
const heldClient = () => {
  const sent: Array<{ args: Array<string>; options: { readonly timeout: number } }> = []
  let settle: { resolve: (reply: unknown) => void; reject: (cause: unknown) => void } | undefined
  const client: RedisRateLimits.CommandClient = {
    sendCommand: (args, options) => {
      sent.push({ args, options })
      return new Promise((resolve, reject) => {
        settle = { resolve, reject }
      })
    }
  }
  return { client, sent, settle: () => settle }
}

const outcome = (connection: ReturnType<typeof RedisRateLimits.routeCounts>, command: Array<string>) => {
  const calls: Array<readonly [string, unknown]> = []
  const done = new Promise<void>((resolve) =>
    connection.send(
      command,
      (reply) => {
        calls.push(["reply", reply])
        resolve()
      },
      (cause) => {
        calls.push(["failure", cause])
        resolve()
      }
    )
  )
  return { calls, done }
}

describe("RedisRateLimits.routeCounts", () => {
  it("sends the command without the driver's per-command timeout and hands on the reply", async () => {
    const held = heldClient()
    const { calls, done } = outcome(RedisRateLimits.routeCounts(held.client, 1_000), ["EVALSHA", "x", "0"])
    held.settle()?.resolve([1, 1, 500])
    await done
    expect(held.sent).toEqual([{ args: ["EVALSHA", "x", "0"], options: { timeout: 0 } }])
    expect(calls).toEqual([["reply", [1, 1, 500]]])
  })

  it("fails the count once its deadline passes, and drops the reply that comes after", async () => {
    const held = heldClient()
    const { calls, done } = outcome(RedisRateLimits.routeCounts(held.client, 5), ["EVALSHA", "x", "0"])
    await done
    held.settle()?.resolve([1, 1, 500])
    await new Promise((resolve) => setImmediate(resolve))
    expect(calls).toHaveLength(1)
    expect(calls[0]?.[0]).toBe("failure")
    expect(calls[0]?.[1]).toMatchObject({ _tag: "CommandDeadlinePassed", deadlineMs: 5 })
  })

  it("hands on the driver's failure", async () => {
    const held = heldClient()
    const { calls, done } = outcome(RedisRateLimits.routeCounts(held.client, 1_000), ["EVALSHA", "x", "0"])
    held.settle()?.reject(new Error("NOSCRIPT No matching script"))
    await done
    expect(calls).toEqual([["failure", new Error("NOSCRIPT No matching script")]])
  })
})
