/**
 * The gateway on the reference server as an operator runs it (a separate process on the embedded
 * PostgreSQL): `GET /gateway` names a URL on the API's own port where a WebSocket client gets
 * HELLO and, after IDENTIFY with a user's token, READY naming this node as `resume_gateway_url`
 * (SERVICE_GATEWAY_NODE_URL); on SIGTERM every session gets op 7 and the server still exits at once.
 */
import * as fs from "node:fs"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { RawClient } from "~/test/support/GatewayServer"
import { getJson, registerByPhone, start, stopAll, tempDataDir } from "./ServerHarness.ts"

afterEach(stopAll)

const dataDir = tempDataDir()
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

describe("the gateway on the reference server", () => {
  it("serves the gateway on the API's port, and sends op 7 to every session on SIGTERM", async () => {
    const server = await start({
      DATABASE_URL: "",
      SERVICE_DATA_DIR: dataDir,
      SERVICE_GATEWAY_NODE_URL: "wss://gw-1.veche.example/gateway"
    })
    const { access_token, user_id } = await registerByPhone(server.base, "+79057650001", "gw_process")

    const gateway = (await getJson(`${server.base}/api/v10/gateway`)).body as { url: string }
    expect(new URL(gateway.url).port).toBe(new URL(server.base).port)
    const client = await RawClient.connect(`${gateway.url}?v=10&encoding=json`)
    expect(await client.next()).toMatchObject({ op: 10, d: { heartbeat_interval: 41250 } })
    client.send({ op: 2, d: { token: access_token, properties: { os: "linux", browser: "t", device: "t" } } })
    const ready = await client.nextDispatch("READY")
    expect(ready.d).toMatchObject({
      user: { id: user_id },
      resume_gateway_url: "wss://gw-1.veche.example/gateway",
      user_settings: { status: "online" }
    })

    // the access log writes a finished WebSocket connection as 101 (Switching Protocols), not 204
    const brief = await RawClient.connect(`${gateway.url}?v=10&encoding=json`)
    await brief.next()
    await brief.close(1000)
    const deadline = Date.now() + 5000
    while (!/access: GET \/gateway\S* 101 /.test(server.output()) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(server.output()).toMatch(/access: GET \/gateway\S* 101 /)
    expect(server.output()).not.toMatch(/access: GET \/gateway\S* 204 /)

    const stoppedAt = Date.now()
    const exited = server.stop("SIGTERM")
    expect(await client.next()).toMatchObject({ op: 7 })
    expect((await client.closed).code).toBe(4000)
    expect(await exited).toBe(0)
    // the open WebSocket did not hold the shutdown until SERVICE_SHUTDOWN_TIMEOUT
    expect(Date.now() - stoppedAt).toBeLessThan(8_000)
  }, 60_000)
})

describe("the reference server's gateway socket", () => {
  it("closes a connection sending a frame far over 4096 characters before buffering it (1009)", async () => {
    const server = await start({ DATABASE_URL: "", SERVICE_DATA_DIR: dataDir })
    const gateway = (await getJson(`${server.base}/api/v10/gateway`)).body as { url: string }
    // just over the limit: the gateway reads it and closes with 4002 (decode error), as the platform
    const over = await RawClient.connect(`${gateway.url}?v=10&encoding=json`)
    await over.next()
    over.send(`{"op":1,"d":null,"x":"${"a".repeat(5000)}"}`)
    expect((await over.closed).code).toBe(4002)
    // far over it, unauthenticated: refused by the socket itself (ws's default would take 100 MiB)
    const huge = await RawClient.connect(`${gateway.url}?v=10&encoding=json`)
    await huge.next()
    huge.send(`{"op":1,"d":null,"x":"${"a".repeat(1024 * 1024)}"}`)
    expect((await huge.closed).code).toBe(1009)
  }, 60_000)
})
