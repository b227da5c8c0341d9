/**
 * Roles: reading, creating, editing, ordering and deleting them. Managing roles needs Manage Roles
 * and reaches only roles below the caller's highest; nobody grants a permission they do not hold.
 * @everyone (the guild's id) keeps its name and cannot be deleted; a bot's managed role leaves with
 * the bot.
 */
import { Snowflake, Spans } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import type { Role, RolePatch } from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { GuildEvents } from "./GuildEvents.ts"
import { InvalidField, MissingPermission, NoSuchRole } from "./GuildsErrors.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import { dropUndefined } from "./internal/Patches.ts"
import { makeRoomAtBottom } from "./internal/RolePositions.ts"
import * as Permissions from "./Permissions.ts"

export interface NewRole {
  readonly name?: string | undefined
  readonly permissions?: bigint | undefined
  readonly color?: number | undefined
  readonly hoist?: boolean | undefined
  readonly mentionable?: boolean | undefined
}

const make = Effect.gen(function* () {
  const repo = yield* GuildsRepo
  const ids = yield* Snowflake.SnowflakeGenerator
  const events = yield* GuildEvents

  const managerOf = Effect.fnUntraced(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageRoles, "ManageRoles")
    return place
  })

  const roleIn = (roles: ReadonlyArray<Role>, roleId: Snowflake.Snowflake) => {
    const role = roles.find((candidate) => candidate.id === roleId)
    return role === undefined ? Effect.fail(new NoSuchRole()) : Effect.succeed(role)
  }

  const list = Spans.fn("Roles.list")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
    return (yield* GuildAccess.placeIn(repo, actor, guildId)).roles
  })

  const get = Spans.fn("Roles.get")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    roleId: Snowflake.Snowflake
  ) {
    return yield* roleIn((yield* GuildAccess.placeIn(repo, actor, guildId)).roles, roleId)
  })

  const create = Spans.fn("Roles.create")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    request: NewRole
  ) {
    const place = yield* managerOf(actor, guildId)
    const permissions = request.permissions ?? place.roles.find((role) => role.id === guildId)?.permissions ?? 0n
    if (request.permissions !== undefined) yield* GuildAccess.requireHolds(place, permissions)
    // New roles start at the bottom, just above @everyone, as on the mirrored platform.
    const role: Role = {
      id: yield* ids.next,
      guildId,
      name: request.name ?? "new role",
      permissions,
      position: 1,
      color: request.color ?? 0,
      hoist: request.hoist ?? false,
      mentionable: request.mentionable ?? false,
      managed: false,
      botId: null
    }
    yield* repo.createRole(role)
    const lifted = yield* makeRoomAtBottom(repo, guildId, role.id)
    yield* events.roleCreate(role)
    yield* Effect.forEach(lifted, events.roleUpdate, { discard: true })
    return role
  })

  const update = Spans.fn("Roles.update")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    roleId: Snowflake.Snowflake,
    patch: RolePatch
  ) {
    const place = yield* managerOf(actor, guildId)
    const role = yield* roleIn(place.roles, roleId)
    const everyone = role.id === guildId
    // @everyone sits below everyone's roles; anyone who manages roles may tune it.
    if (!everyone) yield* GuildAccess.requireAbove(place, role.position)
    if (everyone && patch.name !== undefined && patch.name !== role.name)
      return yield* new InvalidField({ field: "name", code: "ROLE_NAME_LOCKED", message: "@everyone keeps its name." })
    if (patch.permissions !== undefined) yield* GuildAccess.requireHolds(place, patch.permissions & ~role.permissions)
    if (patch.position !== undefined && !everyone) yield* GuildAccess.requireAbove(place, patch.position)
    const updated = yield* repo.updateRole(guildId, roleId, dropUndefined(everyone ? { ...patch, position: 0 } : patch))
    if (Option.isNone(updated)) return yield* new NoSuchRole()
    yield* events.roleUpdate(updated.value)
    return updated.value
  })

  const reorder = Spans.fn("Roles.reorder")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    positions: ReadonlyArray<{ readonly id: Snowflake.Snowflake; readonly position: number }>
  ) {
    const place = yield* managerOf(actor, guildId)
    for (const { id, position } of positions) {
      const role = yield* roleIn(place.roles, id)
      if (role.id === guildId) return yield* new MissingPermission({ needed: "everyone" })
      yield* GuildAccess.requireAbove(place, role.position)
      yield* GuildAccess.requireAbove(place, position)
    }
    for (const { id, position } of positions) {
      const updated = yield* repo.updateRole(guildId, id, { position })
      if (Option.isSome(updated)) yield* events.roleUpdate(updated.value)
    }
    return yield* repo.roles(guildId)
  })

  const remove = Spans.fn("Roles.remove")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    roleId: Snowflake.Snowflake
  ) {
    const place = yield* managerOf(actor, guildId)
    const role = yield* roleIn(place.roles, roleId)
    if (role.id === guildId) return yield* new MissingPermission({ needed: "everyone" })
    if (role.managed) return yield* new MissingPermission({ needed: "managed" })
    yield* GuildAccess.requireAbove(place, role.position)
    if (!(yield* repo.deleteRole(guildId, roleId))) return yield* new NoSuchRole()
    yield* events.roleDelete(guildId, roleId)
  })

  return { list, get, create, update, reorder, remove }
})

export class Roles extends Context.Service<Roles>()("@veche/guilds/Roles", { make }) {
  static readonly layer: Layer.Layer<Roles, never, GuildsRepo | Snowflake.SnowflakeGenerator | GuildEvents> =
    Layer.effect(Roles, Roles.make)
}
