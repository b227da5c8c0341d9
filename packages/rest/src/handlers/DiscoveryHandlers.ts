/**
 * Handlers of the catalogue's two groups: what anyone reads (categories, search, a listed guild's
 * preview) and what takes a user (joining from the catalogue, reporting, the owner's settings).
 * The join answers the guild as GUILD_CREATE carries it (the guilds domain's one builder).
 */
import { type DiscoveryApi, Principal, RestApi } from "@veche/api"
import { Categories, Discovery } from "@veche/discovery"
import { UnknownGuild } from "@veche/errors"
import { GuildSnapshots } from "@veche/guilds"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { refuse } from "./DiscoveryRefusals.ts"
import type * as GroupLayer from "./GroupLayer.ts"

const card = (shown: Discovery.Shown): typeof DiscoveryApi.DiscoveryCard.Type => ({
  id: shown.guild.id,
  name: shown.guild.name,
  icon: shown.guild.icon,
  banner: shown.guild.banner,
  description: shown.listing.description,
  category: Categories.byId(shown.listing.category),
  tags: shown.listing.tags,
  features: [...shown.guild.features, "DISCOVERABLE"],
  approximate_member_count: shown.guild.memberCount,
  approximate_presence_count: shown.online,
  // Boosts do not exist yet: every guild is at tier 0.
  premium_tier: 0,
  slug: shown.listing.slug
})

const preview = (shown: Discovery.Shown): typeof DiscoveryApi.GuildPreview.Type => ({
  id: shown.guild.id,
  name: shown.guild.name,
  icon: shown.guild.icon,
  splash: null,
  discovery_splash: null,
  // Custom emoji and stickers do not exist yet.
  emojis: [],
  features: [...shown.guild.features, "DISCOVERABLE"],
  approximate_member_count: shown.guild.memberCount,
  approximate_presence_count: shown.online,
  description: shown.listing.description,
  stickers: []
})

const settings = (view: Discovery.OwnerView): typeof DiscoveryApi.DiscoverySettings.Type => {
  const listing = Option.getOrNull(view.listing)
  const { unmet, nsfw_properties, ...requirements } = view.requirements
  return {
    guild_id: view.guildId,
    state: view.state,
    slug: listing?.slug ?? null,
    category: listing === null ? null : Categories.byId(listing.category),
    tags: listing?.tags ?? [],
    description: listing?.description ?? null,
    reason: listing?.reason ?? null,
    requirements: { ...requirements, nsfw_properties: { ...nsfw_properties } as Record<string, ReadonlyArray<string>> },
    unmet,
    minimum_size: view.minimumSize,
    minimum_age: view.minimumAge
  }
}

export const layerPublic: GroupLayer.Public<"discoveryPublic", Discovery.Discovery> = HttpApiBuilder.group(
  RestApi.RestApi,
  "discoveryPublic",
  (handlers) =>
    Effect.gen(function* () {
      const discovery = yield* Discovery.Discovery
      return handlers
        .handle("discoveryCategories", () =>
          Effect.map(discovery.limits, (limits) => ({ categories: Categories.all, limits }))
        )
        .handle("discoveryGuilds", ({ query }) =>
          Effect.map(
            discovery.search({
              q: query.q === undefined || query.q.trim() === "" ? null : query.q,
              category: query.category ?? null,
              limit: query.limit,
              offset: query.offset
            }),
            (found) => ({ guilds: found.map(card) })
          )
        )
        .handle("discoveryGuild", ({ params }) =>
          discovery.shown({ slug: params.slug }).pipe(Effect.map(preview), Effect.mapError(refuse))
        )
        .handle("guildPreview", ({ params }) =>
          discovery.shown({ guildId: params.guild_id }).pipe(Effect.map(preview), Effect.mapError(refuse))
        )
    })
)

export const layer: GroupLayer.Authorized<"discovery", Discovery.Discovery | GuildSnapshots.GuildSnapshots> =
  HttpApiBuilder.group(RestApi.RestApi, "discovery", (handlers) =>
    Effect.gen(function* () {
      const discovery = yield* Discovery.Discovery
      const snapshots = yield* GuildSnapshots.GuildSnapshots
      return handlers
        .handle("discoveryJoin", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            yield* discovery.join(user.userId, params.guild_id)
            const created = yield* snapshots.guildCreate(params.guild_id, user.userId)
            // Gone (or left) between the join and this read: the guild is unknown to them now.
            if (Option.isNone(created)) return yield* new UnknownGuild()
            return created.value
          }).pipe(Effect.mapError(refuse))
        )
        .handle("discoveryReport", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            yield* discovery.report(user.userId, params.guild_id, payload.reason)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("getDiscoverySettings", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return settings(yield* discovery.ownerView(user.userId, params.guild_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("publishGuild", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const tags = [...new Set((payload.tags ?? []).map((tag) => tag.trim().toLowerCase()))].filter(
              (tag) => tag !== ""
            )
            const view = yield* discovery.publish(user.userId, params.guild_id, {
              category: payload.category,
              tags,
              description: payload.description.trim()
            })
            return settings(view)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("unpublishGuild", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            yield* discovery.unpublish(user.userId, params.guild_id)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("discoveryQueue", ({ query }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const queued = yield* discovery.queue(user.userId, query.state ?? null, query.limit)
            return {
              // The queue holds staff states only; an owner's unpublished guild is not in it.
              guilds: queued.flatMap(({ listing, reports, ...rest }) =>
                listing.state === "not_listed"
                  ? []
                  : [{ ...card({ listing, ...rest }), state: listing.state, reason: listing.reason, reports }]
              )
            }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("discoveryWords", () =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return { words: yield* discovery.words(user.userId) }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("setDiscoveryWords", ({ payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return { words: yield* discovery.setWords(user.userId, payload.words) }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("setDiscoveryState", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const reason = payload.reason?.trim() ?? ""
            yield* discovery.setState(user.userId, params.guild_id, payload.state, reason === "" ? null : reason)
          }).pipe(Effect.mapError(refuse))
        )
    })
  )
