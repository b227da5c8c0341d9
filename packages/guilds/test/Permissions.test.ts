import { describe, expect, it } from "@effect/vitest"
import { PermissionFlagsBits } from "discord-api-types/v10"
import * as Permissions from "../src/Permissions.ts"

const GUILD = "100"
const OWNER = "1"
const USER = "2"
const everyone = (permissions: bigint) => ({ id: GUILD, permissions })
const member = (roles: ReadonlyArray<Permissions.Role> = [], everyonePermissions = Permissions.DEFAULT_EVERYONE) => ({
  guildId: GUILD,
  ownerId: OWNER,
  userId: USER,
  everyone: everyone(everyonePermissions),
  roles
})

describe("Permissions", () => {
  it("uses the mirrored platform's bit for every flag (as discord-api-types has them)", () => {
    for (const [name, bit] of Object.entries(Permissions.Flags)) {
      expect([name, bit]).toEqual([name, (PermissionFlagsBits as Record<string, bigint>)[name]])
    }
  })

  it("reads and writes the decimal-string wire form, dropping unknown bits and refusing garbage", () => {
    expect(Permissions.toWire(Permissions.Flags.Administrator | Permissions.Flags.KickMembers)).toBe("10")
    expect(Permissions.fromWire("10")).toBe(10n)
    expect(Permissions.fromWire(String((1n << 60n) | 8n))).toBe(8n)
    for (const bad of ["", "-1", "1e3", "0x10", "18446744073709551616", "x"])
      expect(Permissions.fromWire(bad)).toBeUndefined()
  })

  it("the owner and Administrator have everything, whatever the roles and overwrites say", () => {
    expect(Permissions.base({ ...member(), userId: OWNER })).toBe(Permissions.ALL)
    const admin = { id: "10", permissions: Permissions.Flags.Administrator }
    expect(Permissions.base(member([admin]))).toBe(Permissions.ALL)
    const denyAll = [{ id: GUILD, type: 0 as const, allow: 0n, deny: Permissions.ALL }]
    expect(Permissions.inChannel(member([admin]), denyAll)).toBe(Permissions.ALL)
  })

  it("roles add to @everyone; a plain member cannot manage", () => {
    const moderator = { id: "11", permissions: Permissions.Flags.KickMembers | Permissions.Flags.BanMembers }
    const plain = Permissions.base(member())
    expect(Permissions.has(plain, Permissions.Flags.SendMessages)).toBe(true)
    expect(Permissions.has(plain, Permissions.Flags.KickMembers)).toBe(false)
    expect(Permissions.has(plain, Permissions.Flags.ManageGuild)).toBe(false)
    expect(Permissions.has(Permissions.base(member([moderator])), Permissions.Flags.BanMembers)).toBe(true)
  })

  it("overwrites apply in order: @everyone, then roles together, then the member", () => {
    const role = { id: "12", permissions: 0n }
    const send = Permissions.Flags.SendMessages
    const view = Permissions.Flags.ViewChannel
    const overwrites: Array<Permissions.Overwrite> = [
      { id: GUILD, type: 0, allow: 0n, deny: send },
      { id: "12", type: 0, allow: send, deny: 0n },
      { id: USER, type: 1, allow: 0n, deny: send }
    ]
    // @everyone denies, the role allows back, the member's own overwrite denies again
    expect(Permissions.has(Permissions.inChannel(member([role]), overwrites.slice(0, 1)), send)).toBe(false)
    expect(Permissions.has(Permissions.inChannel(member([role]), overwrites.slice(0, 2)), send)).toBe(true)
    expect(Permissions.has(Permissions.inChannel(member([role]), overwrites), send)).toBe(false)
    // a channel one cannot see grants nothing
    expect(Permissions.inChannel(member(), [{ id: GUILD, type: 0, allow: 0n, deny: view }])).toBe(0n)
  })
})
