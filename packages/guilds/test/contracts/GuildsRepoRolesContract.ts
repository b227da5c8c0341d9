/**
 * The GuildsRepo contract's roles: order, update, deletion from members and overwrites (a bot's
 * managed role also when the bot leaves), the per-guild cap under concurrency.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_GUILDS_PER_USER, MAX_ROLES } from "../../src/Guild.ts"
import * as Permissions from "../../src/Permissions.ts"
import {
  arrange,
  bulk,
  type GuildsRepoIt,
  ids,
  newBan,
  newChannel,
  newMember,
  newRole,
  numeric,
  oddId,
  race,
  user
} from "./GuildsRepoFixtures.ts"

export const rolesContract = (it: GuildsRepoIt) => {
  it.effect("roles come by position then id (as numbers), @everyone first", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const roles = yield* Effect.all([
        newRole(guildId, { id: oddId(), position: 2, name: "top" }),
        newRole(guildId, { id: oddId(), position: 1, name: "x" }),
        newRole(guildId, { id: oddId(), position: 1, name: "y" }),
        newRole(guildId, { id: oddId(), position: 1, name: "z", managed: true, botId: yield* user("guild_bot") })
      ])
      for (const role of roles) yield* repo.createRole(role)
      const expected = [created.everyone, ...roles].sort((a, b) => a.position - b.position || numeric(a.id, b.id))
      expect(yield* repo.roles(guildId)).toEqual(expected)
      expect(yield* repo.roles(yield* ids.next)).toEqual([])
    })
  )

  it.effect("updateRole changes a role of the guild; None for an unknown role or another guild's", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const other = yield* arrange()
      const role = yield* newRole(guildId)
      yield* repo.createRole(role)
      const patch = {
        name: "mods",
        permissions: Permissions.Flags.BanMembers | Permissions.Flags.KickMembers,
        position: 3,
        color: 0xff0000,
        hoist: true,
        mentionable: true
      }
      const updated = yield* repo.updateRole(guildId, role.id, patch)
      expect(updated).toEqual(Option.some({ ...role, ...patch }))
      expect(yield* repo.roles(guildId)).toEqual([created.everyone, { ...role, ...patch }])
      expect(Option.isNone(yield* repo.updateRole(guildId, yield* ids.next, { name: "none" }))).toBe(true)
      expect(Option.isNone(yield* repo.updateRole(other.guildId, role.id, { name: "stolen" }))).toBe(true)
      expect(yield* repo.roles(guildId)).toEqual([created.everyone, { ...role, ...patch }])
    })
  )

  it.effect("deleteRole takes the role from every member and channel overwrite", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const [doomed, kept] = yield* Effect.all([newRole(guildId, { name: "doomed" }), newRole(guildId)])
      yield* repo.createRole(doomed)
      yield* repo.createRole(kept)
      const member = yield* user()
      yield* repo.join(newMember(guildId, member, { roleIds: [doomed.id, kept.id] }), MAX_GUILDS_PER_USER)
      yield* repo.updateMember(guildId, owner, { roleIds: [doomed.id] })
      const overwrites = [
        { id: guildId, type: 0 as const, allow: 0n, deny: Permissions.Flags.SendMessages },
        { id: doomed.id, type: 0 as const, allow: Permissions.Flags.SendMessages, deny: 0n },
        { id: kept.id, type: 0 as const, allow: Permissions.Flags.AddReactions, deny: 0n },
        { id: member, type: 1 as const, allow: 0n, deny: Permissions.Flags.AttachFiles }
      ]
      const channel = yield* newChannel(guildId, { overwrites })
      yield* repo.createChannel(channel)

      expect(yield* repo.deleteRole(guildId, doomed.id)).toBe(true)
      expect((yield* repo.roles(guildId)).map((role) => role.id)).toEqual([guildId, kept.id])
      expect(Option.getOrThrow(yield* repo.member(guildId, member)).roleIds).toEqual([kept.id])
      expect(Option.getOrThrow(yield* repo.member(guildId, owner)).roleIds).toEqual([])
      expect(Option.getOrThrow(yield* repo.channel(channel.id)).overwrites).toEqual([
        overwrites[0],
        overwrites[2],
        overwrites[3]
      ])
      expect(yield* repo.deleteRole(guildId, doomed.id)).toBe(false)
      expect(yield* repo.deleteRole(guildId, yield* ids.next)).toBe(false)
    })
  )

  it.effect("a bot's managed role leaves with it, kicked or banned, with every reference to it", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const [kicked, banned, staying] = yield* Effect.all([user(), user(), user()])
      const botRole = (botId: typeof kicked) => newRole(guildId, { name: "bot", managed: true, botId })
      const [kickedRole, bannedRole, stayingRole, plain] = yield* Effect.all([
        botRole(kicked),
        botRole(banned),
        botRole(staying),
        newRole(guildId)
      ])
      for (const role of [kickedRole, bannedRole, stayingRole, plain]) yield* repo.createRole(role)
      yield* repo.join(newMember(guildId, kicked, { roleIds: [kickedRole.id] }), MAX_GUILDS_PER_USER)
      yield* repo.join(newMember(guildId, banned, { roleIds: [bannedRole.id] }), MAX_GUILDS_PER_USER)
      yield* repo.join(newMember(guildId, staying, { roleIds: [stayingRole.id] }), MAX_GUILDS_PER_USER)
      const overwrites = [
        { id: kickedRole.id, type: 0 as const, allow: Permissions.Flags.SendMessages, deny: 0n },
        { id: plain.id, type: 0 as const, allow: Permissions.Flags.AddReactions, deny: 0n },
        { id: bannedRole.id, type: 0 as const, allow: Permissions.Flags.SendMessages, deny: 0n }
      ]
      const channel = yield* newChannel(guildId, { overwrites })
      yield* repo.createChannel(channel)

      expect(yield* repo.removeMember(guildId, kicked)).toEqual(Option.some({ roleIds: [kickedRole.id] }))
      expect(yield* repo.ban(newBan(guildId, banned, owner))).toEqual(Option.some({ roleIds: [bannedRole.id] }))
      expect((yield* repo.roles(guildId)).map((role) => role.id).sort()).toEqual(
        [guildId, stayingRole.id, plain.id].sort()
      )
      expect(Option.getOrThrow(yield* repo.channel(channel.id)).overwrites).toEqual([overwrites[1]])
      // A member who was already gone takes nothing more.
      expect(Option.isNone(yield* repo.removeMember(guildId, kicked))).toBe(true)
      expect(Option.isNone(yield* repo.ban(newBan(guildId, kicked, owner)))).toBe(true)
      expect((yield* repo.roles(guildId)).length).toBe(3)
    })
  )

  it.effect("a guild holds at most 250 roles, @everyone included", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_ROLES - 1, (i) => Effect.flatMap(newRole(guildId, { name: `r${i}` }), repo.createRole))
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
      const extra = yield* newRole(guildId)
      expect((yield* Effect.flip(repo.createRole(extra)))._tag).toBe("RoleLimitReached")
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
      // Deleting one makes room for one.
      const roles = yield* repo.roles(guildId)
      const last = roles[roles.length - 1]
      expect(yield* repo.deleteRole(guildId, last?.id ?? guildId)).toBe(true)
      yield* repo.createRole(extra)
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
    })
  )

  it.effect("three concurrent role creations at 249 roles: exactly one succeeds", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_ROLES - 2, (i) => Effect.flatMap(newRole(guildId, { name: `r${i}` }), repo.createRole))
      const attempts = yield* Effect.all([newRole(guildId), newRole(guildId), newRole(guildId)])
      const { succeeded, failed } = yield* race(attempts.map(repo.createRole))
      expect(succeeded).toBe(1)
      expect(failed).toEqual(["RoleLimitReached", "RoleLimitReached"])
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
    })
  )
}
