/** Handlers of the members group: members (`@me` for the caller), kicks and bans. */
import { Principal, RestApi } from "@veche/api"
import { GuildViews, Members } from "@veche/guilds"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./GuildRefusals.ts"

const shownMember = (shown: Members.Shown) => GuildViews.member(shown.member, shown.user)
const shownBan = (shown: Members.ShownBan) => GuildViews.ban(shown.ban, shown.user)

export const layer: GroupLayer.Authorized<"members", Members.Members> = HttpApiBuilder.group(
  RestApi.RestApi,
  "members",
  (handlers) =>
    Effect.gen(function* () {
      const members = yield* Members.Members
      return handlers
        .handle("listMembers", ({ params, query }) =>
          Effect.gen(function* () {
            const page = yield* members.list(yield* Principal.currentActor, params.guild_id, {
              after: query.after,
              limit: query.limit
            })
            return page.map(shownMember)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("getMember", ({ params }) =>
          Effect.gen(function* () {
            const actor = yield* Principal.currentActor
            const userId = params.user_id === "@me" ? actor.userId : params.user_id
            return shownMember(yield* members.get(actor, params.guild_id, userId))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("updateMember", ({ params, payload }) =>
          Effect.gen(function* () {
            const actor = yield* Principal.currentActor
            const userId = params.user_id === "@me" ? actor.userId : params.user_id
            const shown = yield* members.update(actor, params.guild_id, userId, {
              nick: payload.nick,
              // null clears the roles, as an empty list does
              roleIds: payload.roles === undefined ? undefined : (payload.roles ?? [])
            })
            return shownMember(shown)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("removeMember", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) => members.kick(actor, params.guild_id, params.user_id)).pipe(
            Effect.mapError(refuse)
          )
        )
        .handle("listBans", ({ params, query }) =>
          Effect.gen(function* () {
            const page = yield* members.bans(yield* Principal.currentActor, params.guild_id, {
              before: query.before,
              after: query.after,
              limit: query.limit
            })
            return page.map(shownBan)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("getBan", ({ params }) =>
          Effect.gen(function* () {
            return shownBan(yield* members.getBan(yield* Principal.currentActor, params.guild_id, params.user_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("createBan", ({ params, headers }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            members.ban(actor, params.guild_id, params.user_id, headers["x-audit-log-reason"] ?? null)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("removeBan", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) => members.unban(actor, params.guild_id, params.user_id)).pipe(
            Effect.mapError(refuse)
          )
        )
    })
)
