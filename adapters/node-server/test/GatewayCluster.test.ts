/**
 * Two reference-server processes on one PostgreSQL and one Redis: a user's gateway session on node
 * B receives what the user and their guild do through node A (USER_SETTINGS_UPDATE to the user,
 * CHANNEL_CREATE to the guild), carried by Redis pub/sub, and another member's session on node A
 * receives the PRESENCE_UPDATE node B's presence makes of a settings change made through A (presence
 * in Redis: the count A answers includes the user online on B); a bot's identify on B is counted in
 * the budget A reports, and a message posted through A reaches the bot's session on B
 * (MESSAGE_CREATE). A logout through A closes the user's session on B at once (4004), and a
 * refresh through A leaves it open. Runs when REDIS_URL and DATABASE_URL are set.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { RawClient } from "~/test/support/GatewayServer"
import { apiCaller, clusterAvailable, clusterOf, registerByPhone, start, stopAll } from "./ServerHarness.ts"

afterEach(stopAll)

describe.runIf(clusterAvailable)("the gateway across two nodes sharing Redis", () => {
  const cluster = clusterOf("gateway_cluster")
  afterAll(cluster.dropSchema)

  it("delivers to a session on node B what happens through node A", async () => {
    const env = cluster.env
    const a = await start({ ...env, SERVICE_WORKER_ID: "1" })
    const b = await start({ ...env, SERVICE_WORKER_ID: "2" })
    const call = apiCaller(a.base)
    const phone = `+7905${String(process.pid % 10_000_000).padStart(7, "0")}`
    const { access_token: token, user_id: userId } = await registerByPhone(a.base, phone, `gw_cluster_${process.pid}`)
    const guild = (await call("POST", "/guilds", { name: "Cluster Guild" }, token)).body as {
      id: string
      system_channel_id: string
    }

    // a second member, watching from node A
    const watcherPhone = `+7906${String(process.pid % 10_000_000).padStart(7, "0")}`
    const watcher = await registerByPhone(a.base, watcherPhone, `gw_watch_${process.pid}`)
    const invite = (await call("POST", `/channels/${guild.system_channel_id}/invites`, {}, token)).body as {
      code: string
    }
    expect((await call("POST", `/invites/${invite.code}`, {}, watcher.access_token)).status).toBe(200)
    const onA = await RawClient.connect(`${a.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`)
    onA.send({ op: 2, d: { token: watcher.access_token, properties: { os: "linux", browser: "t", device: "t" } } })
    await onA.nextDispatch("GUILD_CREATE")

    const onB = await RawClient.connect(`${b.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`)
    onB.send({ op: 2, d: { token, properties: { os: "linux", browser: "t", device: "t" } } })
    await onB.nextDispatch("READY")
    expect((await onB.nextDispatch("GUILD_CREATE")).d).toMatchObject({ id: guild.id })
    const presenceOf = async (client: RawClient, id: string) => {
      for (;;) {
        const frame = await client.nextDispatch("PRESENCE_UPDATE")
        if ((frame.d as { user: { id: string } }).user.id === id) return frame.d
      }
    }
    // the user came online on B: the member on A hears it, and A counts both (presence in Redis)
    expect(await presenceOf(onA, userId)).toMatchObject({ guild_id: guild.id, status: "online" })
    const counted = await call("GET", `/guilds/${guild.id}?with_counts=true`, undefined, token)
    expect(counted.body).toMatchObject({ approximate_member_count: 2, approximate_presence_count: 2 })

    expect((await call("PATCH", "/users/@me/settings", { status: "idle" }, token)).status).toBe(200)
    expect((await onB.nextDispatch("USER_SETTINGS_UPDATE")).d).toMatchObject({ status: "idle" })
    expect(await presenceOf(onA, userId)).toMatchObject({ guild_id: guild.id, status: "idle" })
    // invisible: offline to others
    expect((await call("PATCH", "/users/@me/settings", { status: "invisible" }, token)).status).toBe(200)
    expect(await presenceOf(onA, userId)).toMatchObject({ status: "offline", activities: [] })
    await onA.close()
    expect((await call("POST", `/guilds/${guild.id}/channels`, { name: "via-a" }, token)).status).toBe(201)
    expect((await onB.nextDispatch("CHANNEL_CREATE")).d).toMatchObject({ guild_id: guild.id, name: "via-a" })
    await onB.close()

    // a bot's identify on node B spends the budget node A reports (identify limits in Redis)
    const app = (await call("POST", "/applications", { name: `Cluster Bot ${process.pid % 1000}` }, token)).body as {
      id: string
    }
    const bot = (await call("POST", `/applications/${app.id}/bot/reset`, undefined, token)).body as { token: string }
    // the owner adds the bot to the guild through node A (the consent route)
    const added = await call(
      "POST",
      `/oauth2/authorize?client_id=${app.id}&scope=bot&permissions=2048`,
      { authorize: true, guild_id: guild.id },
      token
    )
    expect(added.status).toBe(200)
    const botOnB = await RawClient.connect(`${b.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`)
    botOnB.send({
      op: 2,
      // GUILDS | GUILD_MESSAGES
      d: { token: bot.token, intents: 1 | 512, properties: { os: "linux", browser: "t", device: "t" } }
    })
    expect((await botOnB.nextDispatch("READY")).d).toMatchObject({ application: { id: app.id } })
    expect((await botOnB.nextDispatch("GUILD_CREATE")).d).toMatchObject({ id: guild.id })
    const budget = await call("GET", "/gateway/bot", undefined, undefined, { authorization: `Bot ${bot.token}` })
    expect(budget.body).toMatchObject({ session_start_limit: { total: 1000, remaining: 999 } })

    // a message posted through node A reaches the bot's session on node B (content emptied:
    // the bot has no MESSAGE_CONTENT intent)
    const channels = (await call("GET", `/guilds/${guild.id}/channels`, undefined, token)).body as Array<{
      id: string
      type: number
    }>
    const text = channels.find((channel) => channel.type === 0)
    const posted = await call("POST", `/channels/${text?.id}/messages`, { content: "across nodes" }, token)
    expect(posted.status).toBe(200)
    const message = await botOnB.nextDispatch("MESSAGE_CREATE")
    expect(message.d).toMatchObject({
      id: (posted.body as { id: string }).id,
      channel_id: text?.id,
      guild_id: guild.id,
      content: ""
    })
    await botOnB.close()
  }, 90_000)

  it("a logout through node A closes the user's gateway session on node B at once (4004); a refresh does not", async () => {
    const env = cluster.env
    const a = await start({ ...env, SERVICE_WORKER_ID: "3" })
    const b = await start({ ...env, SERVICE_WORKER_ID: "4" })
    const call = apiCaller(a.base)
    const phone = `+7907${String(process.pid % 10_000_000).padStart(7, "0")}`
    const registered = await registerByPhone(a.base, phone, `gw_logout_${process.pid}`)
    const onB = await RawClient.connect(`${b.base.replace(/^http/, "ws")}/gateway?v=10&encoding=json`)
    onB.send({ op: 2, d: { token: registered.access_token, properties: { os: "linux", browser: "t", device: "t" } } })
    await onB.nextDispatch("READY")
    const within = (ms: number) =>
      Promise.race([onB.closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms))])

    // the refresh deletes the token B's session identified with: B asks, and the login session holds
    const refreshed = await call("POST", "/auth/refresh", { refresh_token: registered.refresh_token })
    expect(refreshed.status).toBe(200)
    const { access_token: token } = refreshed.body as { access_token: string }
    expect(await within(1000)).toBe("open")

    expect((await call("POST", "/auth/logout", undefined, token)).status).toBe(204)
    // PostgreSQL's notification reaches B's connections; its periodic check (41 s) is far off
    expect(await within(5000)).toMatchObject({ code: 4004 })
  }, 90_000)
})
