/**
 * Channels of a guild (text, voice, categories): reading, creating, editing, ordering, deleting,
 * and their permission overwrites. Managing channels needs Manage Channels; writing overwrites
 * needs Manage Roles, and nobody allows or denies a permission they do not hold. A Community
 * guild's rules and updates channels cannot be deleted.
 */
import { Snowflake, Spans } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import { ChannelContents } from "./ChannelContents.ts"
import type { Channel, ChannelPatch, ChannelType, Guild, Overwrite } from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { GuildEvents } from "./GuildEvents.ts"
import { CommunityChannelRequired, InvalidField, NoSuchChannel } from "./GuildsErrors.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import { dropUndefined } from "./internal/Patches.ts"
import * as Permissions from "./Permissions.ts"

export interface NewChannel {
  readonly type: ChannelType
  readonly name: string
  readonly topic?: string | null | undefined
  readonly position?: number | undefined
  readonly parentId?: Snowflake.Snowflake | null | undefined
  readonly nsfw?: boolean | undefined
  readonly rateLimitPerUser?: number | undefined
  readonly bitrate?: number | undefined
  readonly userLimit?: number | undefined
  readonly overwrites?: ReadonlyArray<Overwrite> | undefined
}

export interface Placement {
  readonly id: Snowflake.Snowflake
  readonly position?: number | undefined
  readonly parentId?: Snowflake.Snowflake | null | undefined
  /** Take the new category's overwrites. */
  readonly lockPermissions?: boolean | undefined
}

/** Text channel names are lower case with dashes for spaces, as the mirrored platform stores them. */
export const normaliseName = (type: ChannelType, name: string): string =>
  type === 0 ? name.trim().toLowerCase().replace(/\s+/g, "-") : name.trim()

const make = Effect.gen(function* () {
  const repo = yield* GuildsRepo
  const ids = yield* Snowflake.SnowflakeGenerator
  const events = yield* GuildEvents
  const contents = yield* ChannelContents

  /** A parent must be a category of the same guild; categories have none. */
  const checkParent = Effect.fnUntraced(function* (
    guildId: Snowflake.Snowflake,
    type: ChannelType,
    parentId: Snowflake.Snowflake | null | undefined
  ) {
    if (parentId === null || parentId === undefined) return
    const parent = yield* repo.channel(parentId)
    if (type === 4 || Option.isNone(parent) || parent.value.guildId !== guildId || parent.value.type !== 4)
      return yield* new InvalidField({
        field: "parent_id",
        code: "CHANNEL_PARENT_INVALID",
        message: "Must be a category of this server."
      })
  })

  /** Overwrites must name a role or member of the guild, and grant nothing the caller lacks. */
  const checkOverwrites = Effect.fnUntraced(function* (place: GuildAccess.Place, overwrites: ReadonlyArray<Overwrite>) {
    for (const overwrite of overwrites) {
      const known =
        overwrite.type === 0
          ? place.roles.some((role) => role.id === overwrite.id)
          : Option.isSome(yield* repo.member(place.guild.id, overwrite.id))
      if (!known)
        return yield* new InvalidField({
          field: "permission_overwrites",
          code: "UNKNOWN_OVERWRITE_TARGET",
          message: overwrite.type === 0 ? "Unknown role." : "Unknown member."
        })
      yield* GuildAccess.requireHolds(place, overwrite.allow | overwrite.deny)
    }
  })

  const list = Spans.fn("Channels.list")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
    yield* GuildAccess.placeIn(repo, actor, guildId)
    return yield* repo.channels(guildId)
  })

  const get = Spans.fn("Channels.get")(function* (actor: GuildAccess.Actor, channelId: Snowflake.Snowflake) {
    return (yield* GuildAccess.channelPlace(repo, actor, channelId)).channel
  })

  const create = Spans.fn("Channels.create")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    request: NewChannel
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageChannels, "ManageChannels")
    yield* checkParent(guildId, request.type, request.parentId)
    const overwrites = request.overwrites ?? []
    if (overwrites.length > 0) {
      yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageRoles, "ManageRoles")
      yield* checkOverwrites(place, overwrites)
    }
    const siblings = (yield* repo.channels(guildId)).filter(
      (channel) => channel.parentId === (request.parentId ?? null) && (channel.type === 4) === (request.type === 4)
    )
    const channel: Channel = {
      id: yield* ids.next,
      guildId,
      type: request.type,
      name: normaliseName(request.type, request.name),
      position: request.position ?? siblings.reduce((next, sibling) => Math.max(next, sibling.position + 1), 0),
      parentId: request.parentId ?? null,
      topic: request.type === 0 ? (request.topic ?? null) : null,
      nsfw: request.nsfw ?? false,
      rateLimitPerUser: request.type === 0 ? (request.rateLimitPerUser ?? 0) : 0,
      bitrate: request.type === 2 ? (request.bitrate ?? 64_000) : 0,
      userLimit: request.type === 2 ? (request.userLimit ?? 0) : 0,
      overwrites
    }
    yield* repo.createChannel(channel)
    yield* events.channelCreate(channel)
    return channel
  })

  const update = Spans.fn("Channels.update")(function* (
    actor: GuildAccess.Actor,
    channelId: Snowflake.Snowflake,
    patch: ChannelPatch
  ) {
    const { place, channel, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageChannels, "ManageChannels")
    if (patch.parentId !== undefined) yield* checkParent(channel.guildId, channel.type, patch.parentId)
    if (patch.overwrites !== undefined) {
      yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageRoles, "ManageRoles")
      yield* checkOverwrites(place, patch.overwrites)
    }
    const typed = {
      ...patch,
      ...(patch.name === undefined ? {} : { name: normaliseName(channel.type, patch.name) }),
      // Fields of another kind of channel are ignored, as the mirrored platform does.
      ...(channel.type === 0 ? {} : { topic: undefined, rateLimitPerUser: undefined }),
      ...(channel.type === 2 ? {} : { bitrate: undefined, userLimit: undefined })
    }
    const updated = yield* repo.updateChannel(channelId, dropUndefined(typed))
    if (Option.isNone(updated)) return yield* new NoSuchChannel()
    yield* events.channelUpdate(updated.value)
    return updated.value
  })

  const reorder = Spans.fn("Channels.reorder")(function* (
    actor: GuildAccess.Actor,
    guildId: Snowflake.Snowflake,
    placements: ReadonlyArray<Placement>
  ) {
    const place = yield* GuildAccess.placeIn(repo, actor, guildId)
    yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageChannels, "ManageChannels")
    const channels = yield* repo.channels(guildId)
    for (const placement of placements) {
      const channel = channels.find((candidate) => candidate.id === placement.id)
      if (channel === undefined) return yield* new NoSuchChannel()
      yield* checkParent(guildId, channel.type, placement.parentId)
    }
    for (const placement of placements) {
      const parent =
        placement.lockPermissions === true && placement.parentId !== undefined && placement.parentId !== null
          ? channels.find((candidate) => candidate.id === placement.parentId)
          : undefined
      const updated = yield* repo.updateChannel(
        placement.id,
        dropUndefined({
          position: placement.position,
          parentId: placement.parentId,
          overwrites: parent?.overwrites
        })
      )
      if (Option.isSome(updated)) yield* events.channelUpdate(updated.value)
    }
  })

  const isCommunityChannel = (guild: Guild, channelId: Snowflake.Snowflake) =>
    guild.features.includes("COMMUNITY") &&
    (guild.rulesChannelId === channelId || guild.publicUpdatesChannelId === channelId)

  const remove = Spans.fn("Channels.remove")(function* (actor: GuildAccess.Actor, channelId: Snowflake.Snowflake) {
    const { place, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageChannels, "ManageChannels")
    if (isCommunityChannel(place.guild, channelId)) return yield* new CommunityChannelRequired()
    const removed = yield* repo.deleteChannel(channelId)
    if (Option.isNone(removed)) return yield* new NoSuchChannel()
    yield* events.channelDelete(removed.value)
    // what other domains kept in it (messages) goes too
    yield* contents.channelsRemoved([channelId])
    return removed.value
  })

  const putOverwrite = Spans.fn("Channels.putOverwrite")(function* (
    actor: GuildAccess.Actor,
    channelId: Snowflake.Snowflake,
    overwrite: Overwrite
  ) {
    const { place, channel, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageRoles, "ManageRoles")
    yield* checkOverwrites(place, [overwrite])
    const overwrites = [...channel.overwrites.filter((existing) => existing.id !== overwrite.id), overwrite]
    const updated = yield* repo.updateChannel(channelId, { overwrites })
    if (Option.isNone(updated)) return yield* new NoSuchChannel()
    yield* events.channelUpdate(updated.value)
  })

  const deleteOverwrite = Spans.fn("Channels.deleteOverwrite")(function* (
    actor: GuildAccess.Actor,
    channelId: Snowflake.Snowflake,
    overwriteId: Snowflake.Snowflake
  ) {
    const { channel, permissions } = yield* GuildAccess.channelPlace(repo, actor, channelId)
    yield* GuildAccess.requireInChannel(permissions, Permissions.Flags.ManageRoles, "ManageRoles")
    if (!channel.overwrites.some((existing) => existing.id === overwriteId)) return
    const updated = yield* repo.updateChannel(channelId, {
      overwrites: channel.overwrites.filter((existing) => existing.id !== overwriteId)
    })
    if (Option.isSome(updated)) yield* events.channelUpdate(updated.value)
  })

  /**
   * The caller's place in a channel for the domains above (messages): the channel, the guild, the
   * caller's membership and permissions there. 10003 / 50001 as every channel route.
   */
  const access = (actor: GuildAccess.Actor, channelId: Snowflake.Snowflake) =>
    GuildAccess.channelPlace(repo, actor, channelId)

  return { list, get, create, update, reorder, remove, putOverwrite, deleteOverwrite, access }
})

export class Channels extends Context.Service<Channels>()("@veche/guilds/Channels", { make }) {
  static readonly layer: Layer.Layer<
    Channels,
    never,
    GuildsRepo | Snowflake.SnowflakeGenerator | GuildEvents | ChannelContents
  > = Layer.effect(Channels, Channels.make)
}
