/**
 * The in-memory GuildsRepo's roles: listed by position, added under the per-guild cap, edited, and
 * deleted together with every member's and overwrite's reference to them.
 */
import { Effect, Option } from "effect"
import { MAX_ROLES, type RolePatch } from "../Guild.ts"
import { type NoSuchGuild, RoleLimitReached } from "../GuildsErrors.ts"
import type { RolesPart } from "../GuildsRepo.ts"
import { byPosition, noGuild, type Store, updated, withoutRole } from "./MemoryGuildsState.ts"

export const make = ({ read, step }: Store): RolesPart => ({
  roles: (guildId) => read((s) => byPosition(s.roles.filter((role) => role.guildId === guildId))),
  createRole: (role) =>
    step<void, RoleLimitReached | NoSuchGuild>((s) => {
      if (!s.guilds.has(role.guildId)) return [noGuild, s]
      if (s.roles.filter((r) => r.guildId === role.guildId).length >= MAX_ROLES) {
        return [Effect.fail(new RoleLimitReached()), s]
      }
      return [Effect.void, { ...s, roles: [...s.roles, role] }]
    }),
  updateRole: (guildId, roleId, patch: RolePatch) =>
    step((s) => {
      const [role, roles] = updated(
        s.roles,
        (r) => r.guildId === guildId && r.id === roleId,
        (r) => ({ ...r, ...patch })
      )
      return [Effect.succeed(role), Option.isSome(role) ? { ...s, roles } : s]
    }),
  deleteRole: (guildId, roleId) =>
    step((s) => {
      if (!s.roles.some((r) => r.guildId === guildId && r.id === roleId)) return [Effect.succeed(false), s]
      return [Effect.succeed(true), withoutRole(s, guildId, roleId)]
    })
})
