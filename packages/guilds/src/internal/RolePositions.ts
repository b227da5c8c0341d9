/**
 * New roles enter at the bottom (position 1, just above @everyone) and lift every other role by
 * one, as on the mirrored platform, so positions stay distinct and the hierarchy stays strict.
 * One update per lifted role: positions order roles and nothing else depends on them atomically.
 */
import type { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import type { Role } from "../Guild.ts"
import type { GuildsRepo } from "../GuildsRepo.ts"

export const makeRoomAtBottom = (
  repo: GuildsRepo["Service"],
  guildId: Snowflake.Snowflake,
  /** The role just added at the bottom. */
  added: Snowflake.Snowflake
): Effect.Effect<ReadonlyArray<Role>> =>
  Effect.flatMap(repo.roles(guildId), (roles) =>
    Effect.map(
      Effect.forEach(
        roles.filter((role) => role.id !== guildId && role.id !== added && role.position >= 1),
        (role) => repo.updateRole(guildId, role.id, { position: role.position + 1 })
      ),
      (lifted) => lifted.flatMap((role) => (Option.isSome(role) ? [role.value] : []))
    )
  )
