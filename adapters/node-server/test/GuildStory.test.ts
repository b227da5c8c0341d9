/**
 * A guild's story against the reference server as `pnpm start` runs it (embedded PostgreSQL, dev
 * providers): two people register by phone, one creates a guild with an icon (served from the media
 * route) and invites the other, who joins and sees the guild in their list; the owner bans them and
 * the invite no longer lets them in; after a restart the guild, its roles, channels, the ban and the
 * member count are all still there; finally the owner deletes the guild.
 */
import * as fs from "node:fs"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { dataUri, png } from "~/test/support/Png"
import { apiCaller, registerByPhone, start, stopAll, tempDataDir } from "./ServerHarness.ts"

afterEach(stopAll)

const dataDir = tempDataDir()
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

const PASSWORD = "correct horse battery"

const client = (base: string) => ({
  call: apiCaller(base),
  register: (phone: string, username: string) => registerByPhone(base, phone, username, PASSWORD)
})

interface Guild {
  readonly id: string
  readonly icon: string | null
  readonly system_channel_id: string
  readonly roles: ReadonlyArray<{ readonly id: string; readonly name: string; readonly permissions: string }>
  readonly approximate_member_count?: number
}

const byId = <A extends { readonly id: string }>(items: ReadonlyArray<A>) =>
  [...items].sort((a, b) => a.id.localeCompare(b.id))

describe("a guild on the reference server (embedded PostgreSQL)", () => {
  it("is created with an icon, joined by invite, bans, survives a restart, and is deleted", async () => {
    const env = { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir, SERVICE_CODE_SECRET: "", SERVICE_SECRET_KEYS: "" }
    let server = await start(env)
    let api = client(server.base)

    const a = await api.register("+79057654321", "guild_owner")
    const b = await api.register("+79057654322", "guild_guest")

    // A guild with an icon, stored under the data folder and served from the media route.
    const created = await api.call("POST", "/guilds", { name: "Story Guild", icon: dataUri(png(64)) }, a.access_token)
    expect(created.status).toBe(201)
    const guild = created.body as Guild
    expect(guild).toMatchObject({ name: "Story Guild", owner_id: a.user_id })
    expect(guild.icon).toMatch(/^[0-9a-f]{32}$/)
    const iconUrl = `${server.base}/api/v10/icons/${guild.id}/${guild.icon}.png`
    const icon = await fetch(iconUrl)
    expect(icon.status).toBe(200)
    expect(icon.headers.get("content-type")).toBe("image/png")
    const iconBytes = (await icon.arrayBuffer()).byteLength
    expect(iconBytes).toBeGreaterThan(0)

    // A role and a channel of the owner's making, so the restart has more than the defaults to keep.
    const role = await api.call("POST", `/guilds/${guild.id}/roles`, { name: "Elders", hoist: true }, a.access_token)
    expect(role.status).toBe(200)
    const channel = await api.call("POST", `/guilds/${guild.id}/channels`, { name: "chronicle" }, a.access_token)
    expect(channel.status).toBe(201)

    const invite = await api.call("POST", `/channels/${guild.system_channel_id}/invites`, {}, a.access_token)
    expect(invite.status).toBe(200)
    const { code } = invite.body as { code: string }

    // B joins, and sees the guild with both members in their list.
    const accepted = await api.call("POST", `/invites/${code}`, {}, b.access_token)
    expect(accepted).toMatchObject({ status: 200, body: { code, new_member: true, guild: { id: guild.id } } })
    const listed = await api.call("GET", "/users/@me/guilds?with_counts=true", undefined, b.access_token)
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual([
      expect.objectContaining({ id: guild.id, name: "Story Guild", owner: false, approximate_member_count: 2 })
    ])

    // A bans B with a reason (percent-encoded, as libraries send it); the invite no longer lets B in.
    const reason = "spam, twice: ça suffit"
    const banned = await api.call("PUT", `/guilds/${guild.id}/bans/${b.user_id}`, undefined, a.access_token, {
      "x-audit-log-reason": encodeURIComponent(reason)
    })
    expect(banned.status).toBe(204)
    expect(await api.call("POST", `/invites/${code}`, {}, b.access_token)).toMatchObject({
      status: 403,
      body: { code: 40007 }
    })
    expect((await api.call("GET", "/users/@me/guilds", undefined, b.access_token)).body).toEqual([])

    const snapshot = async () => {
      const read = await api.call("GET", `/guilds/${guild.id}?with_counts=true`, undefined, a.access_token)
      const roles = await api.call("GET", `/guilds/${guild.id}/roles`, undefined, a.access_token)
      const channels = await api.call("GET", `/guilds/${guild.id}/channels`, undefined, a.access_token)
      const ban = await api.call("GET", `/guilds/${guild.id}/bans/${b.user_id}`, undefined, a.access_token)
      for (const answer of [read, roles, channels, ban]) expect(answer.status).toBe(200)
      return {
        guild: read.body as Guild,
        roles: byId(roles.body as Array<{ id: string }>),
        channels: byId(channels.body as Array<{ id: string }>),
        ban: ban.body
      }
    }
    const before = await snapshot()
    expect(before.guild.approximate_member_count).toBe(1)
    expect(before.roles.map((r) => r.id)).toContain((role.body as { id: string }).id)
    expect(before.roles).toHaveLength(2)
    expect(before.channels.map((c) => c.id)).toContain((channel.body as { id: string }).id)
    expect(before.channels).toHaveLength(5)
    expect(before.ban).toMatchObject({ reason, user: { id: b.user_id, username: "guild_guest" } })

    // A restart on the same data folder: everything is read back from PostgreSQL.
    expect(await server.stop()).toBe(0)
    server = await start(env)
    api = client(server.base)
    const after = await snapshot()
    expect(after).toEqual(before)
    expect(after.guild.icon).toBe(guild.icon)
    const iconAgain = await fetch(`${server.base}/api/v10/icons/${guild.id}/${guild.icon}.png`)
    expect(iconAgain.status).toBe(200)
    expect((await iconAgain.arrayBuffer()).byteLength).toBe(iconBytes)
    expect(await api.call("POST", `/invites/${code}`, {}, b.access_token)).toMatchObject({
      status: 403,
      body: { code: 40007 }
    })

    // The owner deletes the guild: it is gone for everyone.
    expect((await api.call("DELETE", `/guilds/${guild.id}`, undefined, a.access_token)).status).toBe(204)
    expect(await api.call("GET", `/guilds/${guild.id}`, undefined, a.access_token)).toEqual({
      status: 404,
      body: { code: 10004, message: "Unknown Guild" }
    })
    expect((await api.call("GET", "/users/@me/guilds", undefined, a.access_token)).body).toEqual([])
    expect(await server.stop()).toBe(0)
  }, 90_000)
})
