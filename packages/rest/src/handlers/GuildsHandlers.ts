/** Handlers of the guilds group: guilds themselves, the caller's list, leaving, and their membership. */
import { type GuildsApi, Principal, RestApi } from "@veche/api"
import { PresenceStore } from "@veche/gateway"
import { GuildPremium, Guilds, GuildsErrors, GuildViews, Members } from "@veche/guilds"
import { ProfileImages } from "@veche/media"
import type { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./GuildRefusals.ts"
import * as MediaHandlers from "./MediaHandlers.ts"

/** What the body asks to change, in the domain's terms (an absent or null field may mean "reset"). */
const changeOf = (body: GuildsApi.GuildPatchBody): Guilds.Change => {
  const change: { -readonly [K in keyof Guilds.Change]: Guilds.Change[K] } = {}
  if (body.name !== undefined) change.name = body.name
  if (body.description !== undefined) change.description = body.description === "" ? null : body.description
  if (body.verification_level !== undefined) change.verificationLevel = body.verification_level ?? 0
  if (body.default_message_notifications !== undefined)
    change.defaultMessageNotifications = body.default_message_notifications ?? 0
  if (body.explicit_content_filter !== undefined) change.explicitContentFilter = body.explicit_content_filter ?? 0
  if (body.afk_channel_id !== undefined) change.afkChannelId = body.afk_channel_id
  if (body.afk_timeout !== undefined) change.afkTimeout = body.afk_timeout
  if (body.system_channel_id !== undefined) change.systemChannelId = body.system_channel_id
  if (body.rules_channel_id !== undefined) change.rulesChannelId = body.rules_channel_id
  if (body.public_updates_channel_id !== undefined) change.publicUpdatesChannelId = body.public_updates_channel_id
  if (body.preferred_locale !== undefined) change.preferredLocale = body.preferred_locale ?? "en-US"
  if (body.features !== undefined) change.features = body.features
  if (body.owner_id !== undefined) change.ownerId = body.owner_id
  return change
}

export const layer: GroupLayer.Authorized<
  "guilds",
  Guilds.Guilds | ProfileImages.ProfileImages | Members.Members | PresenceStore.PresenceStore
> = HttpApiBuilder.group(RestApi.RestApi, "guilds", (handlers) =>
  Effect.gen(function* () {
    const guilds = yield* Guilds.Guilds
    // boosts (billing's, through the kit): the default answers tier 0
    const premium = yield* GuildPremium.GuildPremium
    const members = yield* Members.Members
    const images = yield* ProfileImages.ProfileImages
    const presence = yield* PresenceStore.PresenceStore

    /** Stores an uploaded image under the guild, or answers null to remove it. */
    const image = (kind: "icons" | "banners", field: string, guildId: Snowflake.Snowflake, value: string | null) =>
      value === null
        ? Effect.succeed(null)
        : images.store(kind, guildId, value).pipe(Effect.catchTags(MediaHandlers.uploadErrors(field)))

    // members, and those the gateway's presence shows online (not invisible)
    const countsOf = (guildIds: ReadonlyArray<Snowflake.Snowflake>) =>
      Effect.map(
        Effect.all([guilds.memberCounts(guildIds), presence.guildCounts(guildIds)]),
        ([members, online]) =>
          (guildId: Snowflake.Snowflake) => ({
            members: members.get(guildId) ?? 0,
            presences: online.get(guildId) ?? 0
          })
      )

    return handlers
      .handle("createGuild", ({ payload }) =>
        Effect.gen(function* () {
          yield* Principal.requireUser
          const actor = yield* Principal.currentActor
          const created = yield* guilds.create(
            actor,
            {
              name: payload.name,
              verificationLevel: payload.verification_level,
              defaultMessageNotifications: payload.default_message_notifications,
              explicitContentFilter: payload.explicit_content_filter,
              afkTimeout: payload.afk_timeout
            },
            (guildId) =>
              payload.icon === undefined ? Effect.succeed(null) : image("icons", "icon", guildId, payload.icon),
            (guildId, hash) => ProfileImages.discard(images, "icons", guildId, hash)
          )
          return GuildViews.guild(created.guild, created.roles)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("getGuild", ({ params, query }) =>
        Effect.gen(function* () {
          const { guild, roles } = yield* guilds.read(yield* Principal.currentActor, params.guild_id)
          const tier = yield* premium.of(guild.id)
          if (query.with_counts !== true) return GuildViews.guild(guild, roles, undefined, tier)
          const counts = yield* countsOf([guild.id])
          return GuildViews.guild(guild, roles, counts(guild.id), tier)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("updateGuild", ({ params, payload }) =>
        Effect.gen(function* () {
          const { guild, roles, before } = yield* guilds.update(
            yield* Principal.currentActor,
            params.guild_id,
            changeOf(payload),
            {
              icon: payload.icon === undefined ? undefined : image("icons", "icon", params.guild_id, payload.icon),
              banner:
                payload.banner === undefined ? undefined : image("banners", "banner", params.guild_id, payload.banner)
            }
          )
          // The change is stored: what it replaced is no longer served.
          yield* ProfileImages.discard(images, "icons", guild.id, before.icon, guild.icon)
          yield* ProfileImages.discard(images, "banners", guild.id, before.banner, guild.banner)
          return GuildViews.guild(guild, roles, undefined, yield* premium.of(guild.id))
        }).pipe(Effect.mapError(refuse))
      )
      .handle("deleteGuild", ({ params }) =>
        Effect.gen(function* () {
          const dissolved = yield* guilds.remove(yield* Principal.currentActor, params.guild_id)
          // Dissolved: its images are not served any more.
          if (Option.isSome(dissolved)) {
            yield* ProfileImages.discard(images, "icons", dissolved.value.id, dissolved.value.icon)
            yield* ProfileImages.discard(images, "banners", dissolved.value.id, dissolved.value.banner)
          }
        }).pipe(Effect.mapError(refuse))
      )
      .handle("myGuilds", ({ query }) =>
        Effect.gen(function* () {
          const listed = yield* guilds.mine(yield* Principal.currentActor, {
            before: query.before,
            after: query.after,
            limit: query.limit
          })
          if (query.with_counts !== true) return listed.map((entry) => GuildViews.partialGuild(entry.guild, entry))
          const counts = yield* countsOf(listed.map((entry) => entry.guild.id))
          return listed.map((entry) => GuildViews.partialGuild(entry.guild, entry, counts(entry.guild.id)))
        })
      )
      .handle("leaveGuild", ({ params }) =>
        Effect.flatMap(Principal.currentActor, (actor) => guilds.leave(actor, params.guild_id)).pipe(
          Effect.mapError(refuse)
        )
      )
      .handle("myMember", ({ params }) =>
        Effect.gen(function* () {
          yield* Principal.requireUser
          const actor = yield* Principal.currentActor
          const shown = yield* members
            .get(actor, params.guild_id, actor.userId)
            // Not a member: as far as the caller's own guilds go, there is no such guild.
            .pipe(Effect.catchTag(["NoAccess", "NoSuchMember"], () => Effect.fail(new GuildsErrors.NoSuchGuild())))
          return GuildViews.member(shown.member, shown.user)
        }).pipe(Effect.mapError(refuse))
      )
  })
)
