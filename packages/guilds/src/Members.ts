/**
 * Members and bans: listing and reading members, nicknames and role assignments, kicks, and bans
 * (a ban removes the member in the same step and keeps them out of every later join). Actions on
 * another member need the permission and a place above them in the role hierarchy; nobody acts on
 * the owner.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { type PublicUser, PublicUsers } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import type { Ban, Member, Page, Role } from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { isBotMember } from "./GuildBots.ts"
import { GuildEvents } from "./GuildEvents.ts"
import { MissingPermission, NoSuchBan, NoSuchMember, NoSuchRole, NoSuchUser } from "./GuildsErrors.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import * as Permissions from "./Permissions.ts"

/** A member with the user they are. */
export interface Shown {
  readonly member: Member
  readonly user: PublicUser.PublicUser
}

export interface ShownBan {
  readonly ban: Ban
  readonly user: PublicUser.PublicUser
}

export interface MemberChange {
  /** null or "" removes the nickname. */
  readonly nick?: string | null | undefined
  /** The member's roles besides @everyone, replacing the current set. */
  readonly roleIds?: ReadonlyArray<Snowflake.Snowflake> | undefined
}

const make = Effect.gen(function* () {
  const repo = yield* GuildsRepo
  const users = yield* PublicUsers.PublicUsers
  const events = yield* GuildEvents

  const show = (roles: ReadonlyArray<Role>, members: ReadonlyArray<Member>) =>
    Effect.map(
      users.findMany(
        members.map((member) => member.userId),
        (userId) => members.some((member) => member.userId === userId && isBotMember(roles, member))
      ),
      (found) =>
        members.flatMap((member): Array<Shown> => {
          const user = found.get(member.userId)
          return user === undefined ? [] : [{ member, user }]
        })
    )

  const showOne = Effect.fnUntraced(function* (roles: ReadonlyArray<Role>, member: Member) {
    const [shown] = yield* show(roles, [member])
    if (shown === undefined) return yield* new NoSuchMember()
    return shown
  })

  const findMember = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
    Effect.flatMap(
      repo.member(guildId, userId),
      Option.match({ onNone: () => Effect.fail(new NoSuchMember()), onSome: Effect.succeed })
    )

  const list = Spans.fn("Members.list")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake, page: Page) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    return yield* show(place.roles, yield* repo.members(guildId, page))
  })

  const get = Spans.fn("Members.get")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    const member = userId === actor.userId ? place.member : yield* findMember(guildId, userId)
    return yield* showOne(place.roles, member)
  })

  const update = Spans.fn("Members.update")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake,
    change: MemberChange
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    const target = userId === actor.userId ? place.member : yield* findMember(guildId, userId)
    const self = target.userId === actor.userId

    if (change.nick !== undefined) {
      if (self) {
        if (
          !Permissions.has(place.permissions, Permissions.Flags.ChangeNickname) &&
          !Permissions.has(place.permissions, Permissions.Flags.ManageNicknames)
        )
          return yield* new MissingPermission({ needed: "ChangeNickname" })
      } else {
        yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageNicknames, "ManageNicknames")
        yield* GuildAccess.requireAboveMember(place, target)
      }
    }

    let roleIds: ReadonlyArray<Snowflake.Snowflake> | undefined
    if (change.roleIds !== undefined) {
      yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageRoles, "ManageRoles")
      const wanted = [...new Set(change.roleIds)].filter((roleId) => roleId !== guildId)
      const before = new Set<string>(target.roleIds)
      const after = new Set<string>(wanted)
      const changed = [...wanted.filter((id) => !before.has(id)), ...target.roleIds.filter((id) => !after.has(id))]
      for (const roleId of changed) {
        const role = place.roles.find((candidate) => candidate.id === roleId)
        if (role === undefined) return yield* new NoSuchRole()
        // A bot's role belongs to the bot: nobody hands it out or takes it away.
        if (role.managed) return yield* new MissingPermission({ needed: "managed" })
        yield* GuildAccess.requireAbove(place, role.position)
      }
      roleIds = wanted
    }

    const nick = change.nick === undefined ? undefined : change.nick === "" ? null : change.nick
    const updated = yield* repo.updateMember(guildId, target.userId, {
      ...(nick === undefined ? {} : { nick }),
      ...(roleIds === undefined ? {} : { roleIds })
    })
    if (Option.isNone(updated)) return yield* new NoSuchMember()
    yield* events.memberUpdate(updated.value)
    return yield* showOne(place.roles, updated.value)
  })

  const kick = Spans.fn("Members.kick")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.KickMembers, "KickMembers")
    const target = yield* findMember(guildId, userId)
    yield* GuildAccess.requireAboveMember(place, target)
    const departure = yield* repo.removeMember(guildId, userId)
    if (Option.isNone(departure)) return yield* new NoSuchMember()
    yield* events.memberRemove(guildId, userId, departure.value)
  })

  const ban = Spans.fn("Members.ban")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake,
    reason: string | null
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.BanMembers, "BanMembers")
    if (userId === place.guild.ownerId || userId === actor.userId)
      return yield* new MissingPermission({ needed: "hierarchy" })
    const target = yield* repo.member(guildId, userId)
    if (Option.isSome(target)) yield* GuildAccess.requireAboveMember(place, target.value)
    else if (Option.isNone(yield* users.find(userId))) return yield* new NoSuchUser()
    const record: Ban = { guildId, userId, reason, bannedBy: actor.userId, createdAt: yield* DateTime.now }
    const departure = yield* repo.ban(record)
    if (Option.isSome(departure)) yield* events.memberRemove(guildId, userId, departure.value)
    yield* events.banAdd(record)
  })

  const unban = Spans.fn("Members.unban")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.BanMembers, "BanMembers")
    if (!(yield* repo.unban(guildId, userId))) return yield* new NoSuchBan()
    yield* events.banRemove(guildId, userId)
  })

  const showBans = (bans: ReadonlyArray<Ban>) =>
    Effect.map(users.findMany(bans.map((one) => one.userId)), (found) =>
      bans.flatMap((one): Array<ShownBan> => {
        const user = found.get(one.userId)
        return user === undefined ? [] : [{ ban: one, user }]
      })
    )

  const bans = Spans.fn("Members.bans")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake, page: Page) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.BanMembers, "BanMembers")
    return yield* showBans(yield* repo.bans(guildId, page))
  })

  const getBan = Spans.fn("Members.getBan")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    userId: Snowflake.Snowflake
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.BanMembers, "BanMembers")
    const found = yield* repo.findBan(guildId, userId)
    if (Option.isNone(found)) return yield* new NoSuchBan()
    const [shown] = yield* showBans([found.value])
    if (shown === undefined) return yield* new NoSuchBan()
    return shown
  })

  return { list, get, update, kick, ban, unban, bans, getBan }
})

export class Members extends Context.Service<Members>()("@veche/guilds/Members", { make }) {
  static readonly layer: Layer.Layer<Members, never, GuildsRepo | PublicUsers.PublicUsers | GuildEvents> = Layer.effect(
    Members,
    Members.make
  )
}
