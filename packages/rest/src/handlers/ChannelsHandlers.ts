/** Handlers of the channels group: a guild's channels, one channel, its overwrites and invites. */
import { type ChannelsApi, Principal, RestApi } from "@veche/api"
import { Channels, type Guild, GuildViews, Invites } from "@veche/guilds"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./GuildRefusals.ts"

const overwriteOf = (input: ChannelsApi.OverwriteInput): Guild.Overwrite => ({
  id: input.id,
  type: input.type,
  allow: input.allow ?? 0n,
  deny: input.deny ?? 0n
})

/** Null resets a field to its default, as on the mirrored platform. */
const patchOf = (body: ChannelsApi.ChannelPatchBody): Guild.ChannelPatch => ({
  ...(body.name === undefined ? {} : { name: body.name }),
  ...(body.topic === undefined ? {} : { topic: body.topic === "" ? null : body.topic }),
  ...(body.bitrate === undefined ? {} : { bitrate: body.bitrate ?? 64_000 }),
  ...(body.user_limit === undefined ? {} : { userLimit: body.user_limit ?? 0 }),
  ...(body.rate_limit_per_user === undefined ? {} : { rateLimitPerUser: body.rate_limit_per_user ?? 0 }),
  ...(body.position === undefined || body.position === null ? {} : { position: body.position }),
  ...(body.permission_overwrites === undefined
    ? {}
    : { overwrites: (body.permission_overwrites ?? []).map(overwriteOf) }),
  ...(body.parent_id === undefined ? {} : { parentId: body.parent_id }),
  ...(body.nsfw === undefined ? {} : { nsfw: body.nsfw ?? false })
})

const shownInvite = (shown: Invites.Shown) => GuildViews.inviteWithMetadata(shown)

export const layer: GroupLayer.Authorized<"channels", Channels.Channels | Invites.Invites> = HttpApiBuilder.group(
  RestApi.RestApi,
  "channels",
  (handlers) =>
    Effect.gen(function* () {
      const channels = yield* Channels.Channels
      const invites = yield* Invites.Invites
      return handlers
        .handle("listGuildChannels", ({ params }) =>
          Effect.gen(function* () {
            return (yield* channels.list(yield* Principal.currentActor, params.guild_id)).map((channel) =>
              GuildViews.channel(channel)
            )
          }).pipe(Effect.mapError(refuse))
        )
        .handle("createGuildChannel", ({ params, payload }) =>
          Effect.gen(function* () {
            const channel = yield* channels.create(yield* Principal.currentActor, params.guild_id, {
              type: payload.type,
              name: payload.name,
              topic: payload.topic,
              position: payload.position ?? undefined,
              parentId: payload.parent_id,
              nsfw: payload.nsfw ?? undefined,
              rateLimitPerUser: payload.rate_limit_per_user ?? undefined,
              bitrate: payload.bitrate ?? undefined,
              userLimit: payload.user_limit ?? undefined,
              overwrites: payload.permission_overwrites?.map(overwriteOf)
            })
            return GuildViews.channel(channel)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("reorderGuildChannels", ({ params, payload }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            channels.reorder(
              actor,
              params.guild_id,
              payload.map((entry) => ({
                id: entry.id,
                position: entry.position ?? undefined,
                parentId: entry.parent_id,
                lockPermissions: entry.lock_permissions ?? undefined
              }))
            )
          ).pipe(Effect.mapError(refuse))
        )
        .handle("getChannel", ({ params }) =>
          Effect.gen(function* () {
            return GuildViews.channel(yield* channels.get(yield* Principal.currentActor, params.channel_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("updateChannel", ({ params, payload }) =>
          Effect.gen(function* () {
            return GuildViews.channel(
              yield* channels.update(yield* Principal.currentActor, params.channel_id, patchOf(payload))
            )
          }).pipe(Effect.mapError(refuse))
        )
        .handle("deleteChannel", ({ params }) =>
          Effect.gen(function* () {
            return GuildViews.channel(yield* channels.remove(yield* Principal.currentActor, params.channel_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("putOverwrite", ({ params, payload }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            channels.putOverwrite(actor, params.channel_id, overwriteOf({ ...payload, id: params.overwrite_id }))
          ).pipe(Effect.mapError(refuse))
        )
        .handle("deleteOverwrite", ({ params }) =>
          Effect.flatMap(Principal.currentActor, (actor) =>
            channels.deleteOverwrite(actor, params.channel_id, params.overwrite_id)
          ).pipe(Effect.mapError(refuse))
        )
        .handle("createInvite", ({ params, payload }) =>
          Effect.gen(function* () {
            const shown = yield* invites.create(yield* Principal.currentActor, params.channel_id, {
              maxAge: payload.max_age,
              maxUses: payload.max_uses,
              temporary: payload.temporary,
              unique: payload.unique
            })
            return shownInvite(shown)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("listChannelInvites", ({ params }) =>
          Effect.gen(function* () {
            return (yield* invites.ofChannel(yield* Principal.currentActor, params.channel_id)).map(shownInvite)
          }).pipe(Effect.mapError(refuse))
        )
    })
)
