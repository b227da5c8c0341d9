/** Handlers of the roles group. */
import { Principal, RestApi, RolesApi } from "@veche/api"
import { GuildViews, Roles } from "@veche/guilds"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./GuildRefusals.ts"

/** The colour of a body: `color`, else the primary of `colors`. */
const colorOf = (body: RolesApi.RoleBody) => body.color ?? body.colors?.primary_color ?? undefined

export const layer: GroupLayer.Authorized<"roles", Roles.Roles> = HttpApiBuilder.group(
  RestApi.RestApi,
  "roles",
  (handlers) =>
    Effect.gen(function* () {
      const roles = yield* Roles.Roles
      return handlers
        .handle("listRoles", ({ params }) =>
          Effect.gen(function* () {
            return (yield* roles.list(yield* Principal.currentActor, params.guild_id)).map(GuildViews.role)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("getRole", ({ params }) =>
          Effect.gen(function* () {
            return GuildViews.role(yield* roles.get(yield* Principal.currentActor, params.guild_id, params.role_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("createRole", ({ params, payload }) =>
          Effect.gen(function* () {
            const role = yield* roles.create(yield* Principal.currentActor, params.guild_id, {
              name: payload.name ?? RolesApi.DEFAULT_ROLE_NAME,
              permissions: payload.permissions ?? undefined,
              color: colorOf(payload),
              hoist: payload.hoist ?? undefined,
              mentionable: payload.mentionable ?? undefined
            })
            return GuildViews.role(role)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("reorderRoles", ({ params, payload }) =>
          Effect.gen(function* () {
            const positions = payload.flatMap((entry) =>
              entry.position === undefined || entry.position === null
                ? []
                : [{ id: entry.id, position: entry.position }]
            )
            return (yield* roles.reorder(yield* Principal.currentActor, params.guild_id, positions)).map(
              GuildViews.role
            )
          }).pipe(Effect.mapError(refuse))
        )
        .handle("updateRole", ({ params, payload }) =>
          Effect.gen(function* () {
            const color = payload.color === null ? 0 : colorOf(payload)
            const role = yield* roles.update(yield* Principal.currentActor, params.guild_id, params.role_id, {
              ...(payload.name === undefined || payload.name === null ? {} : { name: payload.name }),
              ...(payload.permissions === undefined || payload.permissions === null
                ? {}
                : { permissions: payload.permissions }),
              ...(color === undefined ? {} : { color }),
              ...(payload.hoist === undefined || payload.hoist === null ? {} : { hoist: payload.hoist }),
              ...(payload.mentionable === undefined || payload.mentionable === null
                ? {}
                : { mentionable: payload.mentionable })
            })
            return GuildViews.role(role)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("deleteRole", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) => roles.remove(actor, params.guild_id, params.role_id)).pipe(
            Effect.mapError(refuse)
          )
        )
    })
)
