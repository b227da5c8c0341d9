/** Handlers of the invites group: a guild's invites, looking one up, accepting and revoking one. */
import { Principal, RestApi } from "@veche/api"
import { PresenceStore } from "@veche/gateway"
import { GuildViews, Invites } from "@veche/guilds"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./GuildRefusals.ts"

export const layer: GroupLayer.Authorized<"invites", Invites.Invites | PresenceStore.PresenceStore> =
  HttpApiBuilder.group(RestApi.RestApi, "invites", (handlers) =>
    Effect.gen(function* () {
      const invites = yield* Invites.Invites
      const presence = yield* PresenceStore.PresenceStore
      // members, and those the gateway's presence shows online (not invisible)
      const countsOf = (shown: Invites.Shown) =>
        Effect.map(presence.guildCounts([shown.guild.id]), (online) => ({
          members: shown.memberCount,
          presences: online.get(shown.guild.id) ?? 0
        }))
      return handlers
        .handle("listGuildInvites", ({ params }) =>
          Effect.gen(function* () {
            return (yield* invites.ofGuild(yield* Principal.currentActor, params.guild_id)).map((shown) =>
              GuildViews.inviteWithMetadata(shown)
            )
          }).pipe(Effect.mapError(refuse))
        )
        .handle("getInvite", ({ params, query }) =>
          Effect.gen(function* () {
            const shown = yield* invites.get(params.code)
            return GuildViews.invite(shown, query.with_counts === true ? yield* countsOf(shown) : undefined)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("acceptInvite", ({ params }) =>
          Effect.gen(function* () {
            yield* Principal.requireUser
            const { shown, joined } = yield* invites.accept(yield* Principal.currentActor, params.code)
            return GuildViews.acceptedInvite(shown, joined)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("deleteInvite", ({ params }) =>
          Effect.gen(function* () {
            const shown = yield* invites.remove(yield* Principal.currentActor, params.code)
            return GuildViews.invite(shown)
          }).pipe(Effect.mapError(refuse))
        )
    })
  )
