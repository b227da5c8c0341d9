/**
 * Two reference-server processes behind one Redis enforce one rate limit together: requests
 * alternate between the nodes and the limit counts them all.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { type Running, start, stopAll, tempDataDir } from "./ServerHarness.ts"

afterEach(stopAll)

const redisUrl = process.env.REDIS_URL
const databaseUrl = process.env.DATABASE_URL

describe.runIf(redisUrl !== undefined && redisUrl !== "")("two nodes sharing Redis", () => {
  const tempDirs: Array<string> = []
  const nodes: Array<Running> = []
  const schema = `veche_cluster_${process.pid}`
  afterAll(async () => {
    for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true })
    if (databaseUrl !== undefined && databaseUrl !== "") {
      const drop = spawn("psql", [databaseUrl, "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  })

  const database = (): Record<string, string> => {
    if (databaseUrl !== undefined && databaseUrl !== "") {
      // both nodes on one database and schema, as in production (migrations run once between them)
      return { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema }
    }
    const dir = tempDataDir()
    tempDirs.push(dir)
    return { DATABASE_URL: "", SERVICE_DATA_DIR: dir }
  }

  it("count requests to either node against one limit", async () => {
    const env = {
      REDIS_URL: redisUrl ?? "",
      SERVICE_RATE_LIMITS: JSON.stringify({
        version: { limit: 5, windowMs: 60_000 },
        default: { limit: 3, windowMs: 60_000 }
      })
    }
    const shared = database()
    nodes.push(await start({ ...env, ...shared, SERVICE_WORKER_ID: "1" }))
    nodes.push(
      await start({ ...env, ...(shared.DATABASE_SCHEMA === undefined ? database() : shared), SERVICE_WORKER_ID: "2" })
    )
    // A client of its own (the nodes trust X-Forwarded-For from loopback), so reruns never collide:
    // an IPv6 /64 of its own, counted with its /48 through the Redis script.
    const net = (n: number) => (n % 0xffff).toString(16)
    const headers = { "x-forwarded-for": `2001:db8:${net(process.pid)}:${net(Date.now())}::1` }
    const statuses: Array<number> = []
    const remaining: Array<string | null> = []
    for (let i = 0; i < 7; i++) {
      const node = nodes[i % 2]
      const response = await fetch(`${node?.base}/api/v10/version`, { headers })
      statuses.push(response.status)
      remaining.push(response.headers.get("x-ratelimit-remaining"))
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
    expect(remaining).toEqual(["4", "3", "2", "1", "0", "0", "0"])
    // A route with a guild id: each node keeps the client's count per caller and guild, one limit
    // between them (the guild route answers 401 without a token, counted all the same).
    const guild: Array<string | null> = []
    for (let i = 0; i < 5; i++) {
      const response = await fetch(`${nodes[i % 2]?.base}/api/v10/guilds/1000000000000000904`, { headers })
      guild.push(response.status === 429 ? "429" : response.headers.get("x-ratelimit-remaining"))
    }
    expect(guild).toEqual(["2", "1", "0", "429", "429"])
    // another deployment on the same Redis (its own SERVICE_REDIS_PREFIX) counts apart
    const apart = await start({ ...env, ...database(), SERVICE_WORKER_ID: "3", SERVICE_REDIS_PREFIX: "veche-apart:" })
    nodes.push(apart)
    const elsewhere = await fetch(`${apart.base}/api/v10/version`, { headers })
    expect([elsewhere.status, elsewhere.headers.get("x-ratelimit-remaining")]).toEqual([200, "4"])
  }, 90_000)
})
