/**
 * Moderating members on memory stores: kicking and banning need their permission and a higher
 * role than the target's, nobody bans the owner or themselves, a ban removes the member, and
 * nicknames follow Change Nickname / Manage Nicknames.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { GuildsRepo } from "../src/GuildsRepo.ts"
import { Members } from "../src/Members.ts"
import * as Permissions from "../src/Permissions.ts"
import { Roles } from "../src/Roles.ts"
import * as World from "./support/GuildWorld.ts"

const { Flags } = Permissions

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

/** A guild of an owner with a moderator (a role with `permissions`) and two plain members. */
const moderated = (permissions: bigint) =>
  Effect.gen(function* () {
    const owner = yield* World.user()
    const moderator = yield* World.user()
    const member = yield* World.user()
    const other = yield* World.user()
    const created = yield* World.guildWith(owner, [moderator, member, other])
    const guildId = created.guild.id
    const role = yield* (yield* Roles).create(owner, guildId, { name: "mods", permissions })
    yield* (yield* Members).update(owner, guildId, moderator.userId, { roleIds: [role.id] })
    return { owner, moderator, member, other, guildId, role }
  })

describe("Members", () => {
  it.effect("kicking needs Kick Members and removes the member", () =>
    Effect.gen(function* () {
      const { owner, moderator, member, other, guildId } = yield* moderated(Flags.KickMembers)
      const members = yield* Members
      expect(yield* tagOf(members.kick(member, guildId, other.userId))).toBe("MissingPermission")
      yield* members.kick(moderator, guildId, member.userId)
      expect(Option.isNone(yield* (yield* GuildsRepo).member(guildId, member.userId))).toBe(true)
      expect(yield* tagOf(members.kick(moderator, guildId, member.userId))).toBe("NoSuchMember")
      // the owner is above every role
      expect(yield* tagOf(members.kick(moderator, guildId, owner.userId))).toBe("MissingPermission")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a moderator cannot act on a member whose top role is as high as theirs", () =>
    Effect.gen(function* () {
      const { owner, moderator, member, guildId, role } = yield* moderated(Flags.KickMembers | Flags.BanMembers)
      const members = yield* Members
      yield* members.update(owner, guildId, member.userId, { roleIds: [role.id] })
      expect(yield* tagOf(members.kick(moderator, guildId, member.userId))).toBe("MissingPermission")
      expect(yield* tagOf(members.ban(moderator, guildId, member.userId, null))).toBe("MissingPermission")
      // the owner can
      yield* members.kick(owner, guildId, member.userId)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a ban needs Ban Members, removes the member and is listed; nobody bans the owner or themselves", () =>
    Effect.gen(function* () {
      const { owner, moderator, member, other, guildId } = yield* moderated(Flags.BanMembers)
      const members = yield* Members
      expect(yield* tagOf(members.ban(other, guildId, member.userId, null))).toBe("MissingPermission")
      expect(yield* tagOf(members.ban(moderator, guildId, owner.userId, null))).toBe("MissingPermission")
      expect(yield* tagOf(members.ban(moderator, guildId, moderator.userId, null))).toBe("MissingPermission")
      yield* members.ban(moderator, guildId, member.userId, "spam")
      expect(Option.isNone(yield* (yield* GuildsRepo).member(guildId, member.userId))).toBe(true)
      const shown = yield* members.getBan(moderator, guildId, member.userId)
      expect(shown.ban).toMatchObject({ reason: "spam", bannedBy: moderator.userId })
      expect((yield* members.bans(moderator, guildId, { limit: 10 })).map((one) => one.ban.userId)).toEqual([
        member.userId
      ])
      expect(yield* tagOf(members.bans(other, guildId, { limit: 10 }))).toBe("MissingPermission")
      yield* members.unban(moderator, guildId, member.userId)
      expect(yield* tagOf(members.unban(moderator, guildId, member.userId))).toBe("NoSuchBan")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("banning a user who is not a member needs the user to exist", () =>
    Effect.gen(function* () {
      const { moderator, guildId } = yield* moderated(Flags.BanMembers)
      const outsider = yield* World.user()
      const members = yield* Members
      yield* members.ban(moderator, guildId, outsider.userId, null)
      expect(yield* tagOf(members.ban(moderator, guildId, guildId, null))).toBe("NoSuchUser")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("one's own nickname needs Change Nickname; another's, Manage Nicknames and a higher role", () =>
    Effect.gen(function* () {
      const { owner, moderator, member, guildId } = yield* moderated(Flags.ManageNicknames)
      const members = yield* Members
      // @everyone has Change Nickname by default
      expect((yield* members.update(member, guildId, member.userId, { nick: "me" })).member.nick).toBe("me")
      expect(yield* tagOf(members.update(member, guildId, moderator.userId, { nick: "x" }))).toBe("MissingPermission")
      yield* members.update(moderator, guildId, member.userId, { nick: "tidy" })
      expect(yield* tagOf(members.update(moderator, guildId, owner.userId, { nick: "boss" }))).toBe("MissingPermission")
      // an empty nickname clears it
      expect((yield* members.update(member, guildId, member.userId, { nick: "" })).member.nick).toBeNull()
    }).pipe(Effect.provide(World.layer))
  )
})
