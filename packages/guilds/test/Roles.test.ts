/**
 * Roles on memory stores: managing them needs Manage Roles, nobody grants a permission they lack or
 * touches a role at or above their own, @everyone keeps its name and place, and a role's
 * permissions reach its members.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Snowflake } from "@veche/platform"
import { Effect } from "effect"
import * as GuildAccess from "../src/GuildAccess.ts"
import { GuildsRepo } from "../src/GuildsRepo.ts"
import { Members } from "../src/Members.ts"
import * as Permissions from "../src/Permissions.ts"
import { Roles } from "../src/Roles.ts"
import * as World from "./support/GuildWorld.ts"

const { Flags } = Permissions

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

/** An owner, a manager holding a "managers" role with Manage Roles (+ `extra`), and a member. */
const managed = (extra = 0n) =>
  Effect.gen(function* () {
    const owner = yield* World.user()
    const manager = yield* World.user()
    const member = yield* World.user()
    const created = yield* World.guildWith(owner, [manager, member])
    const guildId = created.guild.id
    const managers = yield* (yield* Roles).create(owner, guildId, {
      name: "managers",
      permissions: Flags.ManageRoles | extra
    })
    yield* (yield* Members).update(owner, guildId, manager.userId, { roleIds: [managers.id] })
    return { owner, manager, member, guildId, managers }
  })

/** What `actor` may do in the guild, from the stored roles. */
const permissionsOf = (guildId: Snowflake.Snowflake, actor: GuildAccess.Actor) =>
  Effect.flatMap(GuildsRepo, (repo) =>
    Effect.map(GuildAccess.placeIn(repo, actor, guildId), (place) => place.permissions)
  )

describe("Roles", () => {
  it.effect("a new role starts just above @everyone with @everyone's permissions", () =>
    Effect.gen(function* () {
      const { owner, guildId, managers } = yield* managed()
      const roles = yield* Roles
      const plain = yield* roles.create(owner, guildId, { name: "plain" })
      expect(plain.position).toBe(1)
      expect(plain.permissions).toBe(Permissions.DEFAULT_EVERYONE)
      // the earlier role was lifted to make room
      const stored = yield* roles.get(owner, guildId, managers.id)
      expect(stored.position).toBe(2)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("managing roles needs Manage Roles", () =>
    Effect.gen(function* () {
      const { member, guildId } = yield* managed()
      expect(yield* tagOf((yield* Roles).create(member, guildId, { name: "mine" }))).toBe("MissingPermission")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("nobody grants a permission they do not hold", () =>
    Effect.gen(function* () {
      const { manager, guildId } = yield* managed()
      const roles = yield* Roles
      expect(yield* tagOf(roles.create(manager, guildId, { permissions: Flags.BanMembers }))).toBe("MissingPermission")
      const low = yield* roles.create(manager, guildId, { permissions: Flags.ManageRoles })
      expect(yield* tagOf(roles.update(manager, guildId, low.id, { permissions: Flags.Administrator }))).toBe(
        "MissingPermission"
      )
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a role at or above one's own top role is out of reach", () =>
    Effect.gen(function* () {
      const { owner, manager, guildId, managers } = yield* managed()
      const roles = yield* Roles
      expect(yield* tagOf(roles.update(manager, guildId, managers.id, { name: "renamed" }))).toBe("MissingPermission")
      expect(yield* tagOf(roles.remove(manager, guildId, managers.id))).toBe("MissingPermission")
      const below = yield* roles.create(manager, guildId, { name: "below" })
      expect(yield* tagOf(roles.update(manager, guildId, below.id, { position: 5 }))).toBe("MissingPermission")
      yield* roles.update(manager, guildId, below.id, { name: "fine" })
      yield* roles.remove(manager, guildId, below.id)
      // the owner reaches every role
      yield* roles.update(owner, guildId, managers.id, { name: "renamed" })
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("@everyone keeps its name and cannot be deleted or moved", () =>
    Effect.gen(function* () {
      const { owner, guildId } = yield* managed()
      const roles = yield* Roles
      expect(yield* tagOf(roles.update(owner, guildId, guildId, { name: "all" }))).toBe("InvalidField")
      expect(yield* tagOf(roles.remove(owner, guildId, guildId))).toBe("MissingPermission")
      expect(yield* tagOf(roles.reorder(owner, guildId, [{ id: guildId, position: 3 }]))).toBe("MissingPermission")
      const everyone = yield* roles.update(owner, guildId, guildId, { position: 4, permissions: 0n })
      expect(everyone.position).toBe(0)
      expect(everyone.permissions).toBe(0n)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a member holds @everyone's permissions and their roles'; the owner holds all", () =>
    Effect.gen(function* () {
      const { owner, manager, member, guildId, managers } = yield* managed(Flags.KickMembers)
      expect(yield* permissionsOf(guildId, member)).toBe(Permissions.DEFAULT_EVERYONE)
      const managerHolds = yield* permissionsOf(guildId, manager)
      expect(Permissions.has(managerHolds, Flags.KickMembers)).toBe(true)
      expect(Permissions.has(managerHolds, Flags.BanMembers)).toBe(false)
      expect(Permissions.has(yield* permissionsOf(guildId, owner), Flags.Administrator)).toBe(true)
      // taking the role away takes its permissions
      yield* (yield* Members).update(owner, guildId, manager.userId, { roleIds: [] })
      expect(Permissions.has(yield* permissionsOf(guildId, manager), Flags.KickMembers)).toBe(false)
      expect((yield* (yield* Roles).get(owner, guildId, managers.id)).name).toBe("managers")
    }).pipe(Effect.provide(World.layer))
  )
})
