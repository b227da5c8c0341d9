/**
 * Guilds themselves: creating one (with its @everyone role and starting channels), reading and
 * editing it, handing it to another member, dissolving it, the caller's list of guilds, leaving,
 * and a bot's arrival by authorisation. Every step checks the caller's place first (GuildAccess).
 */
import { Snowflake, Spans, Tallies } from "@veche/platform"
import { PublicUser, PublicUsers } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AccountGuildCap } from "./AccountGuildCap.ts"
import { ChannelContents } from "./ChannelContents.ts"
import {
  type Channel,
  everyoneRole,
  type Guild,
  type GuildPatch,
  type Member,
  type NewGuild,
  type Page,
  type Role
} from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { isBotMember } from "./GuildBots.ts"
import { GuildEvents } from "./GuildEvents.ts"
import {
  BannedFromGuild,
  GuildLimitReached,
  InvalidField,
  MissingPermission,
  type NoAccess,
  NoSuchGuild,
  NoSuchMember,
  OwnerCannotLeave,
  type RoleLimitReached
} from "./GuildsErrors.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import { dropUndefined } from "./internal/Patches.ts"
import { makeRoomAtBottom } from "./internal/RolePositions.ts"
import { PendingDeletions } from "./PendingDeletions.ts"
import * as Permissions from "./Permissions.ts"

export interface CreateRequest {
  readonly name: string
  readonly verificationLevel?: Guild["verificationLevel"] | undefined
  readonly defaultMessageNotifications?: Guild["defaultMessageNotifications"] | undefined
  readonly explicitContentFilter?: Guild["explicitContentFilter"] | undefined
  readonly afkTimeout?: number | undefined
}

/** A guild and what it is made of right after creation. */
export interface Created {
  readonly guild: Guild
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
  readonly owner: Member
}

export interface Change extends GuildPatch {
  /**
   * Hands the guild over (owner only; the new owner must be a member who is a person, never a bot,
   * and not waiting for their account's deletion).
   */
  readonly ownerId?: Snowflake.Snowflake | undefined
}

/** A guild in the caller's list: whether they own it and what they may do there. */
export interface Listed {
  readonly guild: Guild
  readonly owner: boolean
  readonly permissions: bigint
}

/** Features an owner may switch on or off (others are the platform's to grant). */
export const MUTABLE_FEATURES: ReadonlyArray<string> = ["COMMUNITY"]

export type Access = NoSuchGuild | NoAccess

export interface Images<E> {
  readonly icon?: Effect.Effect<string | null, E> | undefined
  readonly banner?: Effect.Effect<string | null, E> | undefined
}

export class Guilds extends Context.Service<
  Guilds,
  {
    /**
     * `icon` stores the uploaded icon once the guild's id is known (the image's key holds it) and
     * answers its hash, or null for none; it runs only once the caller is under the guild cap.
     * `discardIcon` deletes a stored icon when the guild is not created after all.
     */
    readonly create: <E>(
      actor: GuildAccess.Actor,
      request: CreateRequest,
      icon: (guildId: Snowflake.Snowflake) => Effect.Effect<string | null, E>,
      discardIcon?: (guildId: Snowflake.Snowflake, hash: string) => Effect.Effect<void>
    ) => Effect.Effect<Created, GuildLimitReached | E>
    /** The guild and its roles, for a member. */
    readonly read: (
      actor: GuildAccess.Actor,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<{ readonly guild: Guild; readonly roles: ReadonlyArray<Role> }, Access>
    /**
     * `images` store a new icon or banner (answering its hash, or null to remove), run once allowed.
     * `before` is the guild as it was, so the caller can delete the images the change replaced.
     */
    readonly update: <E>(
      actor: GuildAccess.Actor,
      guildId: Snowflake.Snowflake,
      change: Change,
      images: Images<E>
    ) => Effect.Effect<
      { readonly guild: Guild; readonly roles: ReadonlyArray<Role>; readonly before: Guild },
      Access | MissingPermission | InvalidField | NoSuchMember | E
    >
    /** Dissolves the guild (owner only); answers it as it was when this call dissolved it (for its images). */
    readonly remove: (
      actor: GuildAccess.Actor,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<Guild>, Access | MissingPermission>
    readonly mine: (actor: GuildAccess.Actor, page: Page) => Effect.Effect<ReadonlyArray<Listed>>
    /** Member counts (cheap: kept with the guild). */
    readonly memberCounts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
    /** The caller leaves; an owner must transfer or dissolve the guild first. */
    readonly leave: (
      actor: GuildAccess.Actor,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<void, NoSuchGuild | OwnerCannotLeave>
    /**
     * The guild side of adding a bot (the OAuth `bot` scope): the caller needs Manage Guild and may
     * grant only permissions they hold; the bot gets a managed role with them. A bot already in the
     * guild stays as it is.
     */
    readonly addBot: (
      actor: GuildAccess.Actor,
      guildId: Snowflake.Snowflake,
      bot: { readonly userId: Snowflake.Snowflake; readonly name: string },
      permissions: bigint
    ) => Effect.Effect<Member, Access | MissingPermission | BannedFromGuild | RoleLimitReached>
    /**
     * A bot leaves for good (its application is deleted), as a kick would take it out. A guild it
     * still owns (handed to it before bots were refused ownership) first goes to `heir` (the
     * application's owner) if they may own it, else to its longest-standing member who may; with
     * nobody left to own it, the guild is dissolved.
     */
    readonly removeBot: (
      botId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      heir: Snowflake.Snowflake
    ) => Effect.Effect<void>
  }
>()("@veche/guilds/Guilds") {
  static readonly layer: Layer.Layer<
    Guilds,
    never,
    GuildsRepo | Snowflake.SnowflakeGenerator | GuildEvents | ChannelContents | PublicUsers.PublicUsers
  > = Layer.effect(
    Guilds,
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const ids = yield* Snowflake.SnowflakeGenerator
      const events = yield* GuildEvents
      const contents = yield* ChannelContents
      const tallies = yield* Tallies.Tallies
      const caps = yield* AccountGuildCap
      const users = yield* PublicUsers.PublicUsers
      const deletions = yield* PendingDeletions

      /**
       * Why the member may not own the guild, if they may not: the mirrored platform never lets a
       * bot own one (50132 there; this API's catalogue has no such code, so 50035 on owner_id), an
       * erased account could never manage it again, and one waiting for its deletion is about to be
       * erased (its deletion was allowed because it owned no such guild). Each would leave the guild
       * without a manager.
       */
      const ownershipRefusal = Effect.fnUntraced(function* (roles: ReadonlyArray<Role>, member: Member) {
        const user = yield* users.find(member.userId, isBotMember(roles, member))
        const refused = (message: string) =>
          Option.some(new InvalidField({ field: "owner_id", code: "GUILD_OWNER_INVALID", message }))
        if (Option.isSome(user) && user.value.bot) return refused("Ownership cannot be transferred to a bot user.")
        if (Option.isNone(user) || PublicUser.isErased(user.value))
          return refused("Ownership cannot be transferred to a deleted account.")
        if (yield* deletions.isPending(member.userId))
          return refused("Ownership cannot be transferred to an account awaiting deletion.")
        return Option.none<InvalidField>()
      })

      const create = Spans.fn("Guilds.create")(function* <E>(
        actor: GuildAccess.Actor,
        request: CreateRequest,
        storeIcon: (guildId: Snowflake.Snowflake) => Effect.Effect<string | null, E>,
        discardIcon?: (guildId: Snowflake.Snowflake, hash: string) => Effect.Effect<void>
      ) {
        const now = yield* DateTime.now
        // The cap before the icon: a refused guild must not leave a stored (public) image behind.
        // The repository checks it again atomically; losing that race discards the icon below.
        const cap = yield* caps.of(actor.userId)
        if ((yield* repo.guildsOf(actor.userId)).length >= cap) return yield* new GuildLimitReached()
        const guildId = yield* ids.next
        const icon = yield* storeIcon(guildId)
        const [textCategory, general, voiceCategory, voice] = yield* Effect.all([
          ids.next,
          ids.next,
          ids.next,
          ids.next
        ])
        const channel = (
          id: Snowflake.Snowflake,
          type: Channel["type"],
          name: string,
          position: number,
          parentId: Snowflake.Snowflake | null
        ): Channel => ({
          id,
          guildId,
          type,
          name,
          position,
          parentId,
          topic: null,
          nsfw: false,
          rateLimitPerUser: 0,
          bitrate: type === 2 ? 64_000 : 0,
          userLimit: 0,
          overwrites: []
        })
        // As the mirrored platform starts a guild: a text and a voice category, each with one channel.
        const created: NewGuild = {
          guild: {
            id: guildId,
            name: request.name,
            icon,
            banner: null,
            description: null,
            ownerId: actor.userId,
            verificationLevel: request.verificationLevel ?? 0,
            defaultMessageNotifications: request.defaultMessageNotifications ?? 0,
            explicitContentFilter: request.explicitContentFilter ?? 0,
            systemChannelId: general,
            rulesChannelId: null,
            publicUpdatesChannelId: null,
            afkChannelId: null,
            afkTimeout: request.afkTimeout ?? 300,
            preferredLocale: "en-US",
            features: [],
            createdAt: now
          },
          everyone: everyoneRole(guildId),
          channels: [
            channel(textCategory, 4, "Text Channels", 0, null),
            channel(general, 0, "general", 0, textCategory),
            channel(voiceCategory, 4, "Voice Channels", 1, null),
            channel(voice, 2, "General", 0, voiceCategory)
          ],
          owner: { guildId, userId: actor.userId, nick: null, roleIds: [], joinedAt: now }
        }
        yield* repo
          .create(created, cap)
          .pipe(
            Effect.onError(() =>
              icon === null || discardIcon === undefined ? Effect.void : discardIcon(guildId, icon)
            )
          )
        yield* tallies.count("new_guilds", now)
        yield* tallies.gauge("guilds", 1)
        yield* events.guildCreate(guildId, actor.userId)
        return {
          guild: created.guild,
          roles: [created.everyone],
          channels: created.channels,
          owner: created.owner
        } satisfies Created
      })

      /** A channel field of the guild must name a channel of the guild of the right type. */
      const checkChannelField = Effect.fnUntraced(function* (
        guildId: Snowflake.Snowflake,
        field: string,
        channelId: Snowflake.Snowflake | null | undefined,
        type: Channel["type"]
      ) {
        if (channelId === null || channelId === undefined) return
        const channel = yield* repo.channel(channelId)
        if (Option.isNone(channel) || channel.value.guildId !== guildId || channel.value.type !== type)
          return yield* new InvalidField({
            field,
            code: "CHANNEL_INVALID",
            message: type === 2 ? "Must be a voice channel of this server." : "Must be a text channel of this server."
          })
      })

      const update = Spans.fn("Guilds.update")(function* <E>(
        actor: GuildAccess.Actor,
        guildId: Snowflake.Snowflake,
        change: Change,
        images: Images<E>
      ) {
        const place = yield* GuildAccess.placeIn(repo, actor, guildId)
        const { ownerId, ...fields } = change
        const editsGuild =
          Object.values(fields).some((value) => value !== undefined) ||
          images.icon !== undefined ||
          images.banner !== undefined
        if (editsGuild) yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageGuild, "ManageGuild")
        if (ownerId !== undefined && ownerId !== place.guild.ownerId && !GuildAccess.isOwner(place))
          return yield* new MissingPermission({ needed: "owner" })
        if (ownerId !== undefined && ownerId !== place.guild.ownerId) {
          // A bot stays a bot and an erased account stays erased, so checking those before the
          // repository's atomic transfer leaves no race. A deletion asked for in between is the one
          // left: its own check (no owned guild with others) can also run before the transfer lands.
          const heir = yield* repo.member(guildId, ownerId)
          if (Option.isNone(heir)) return yield* new NoSuchMember()
          const refused = yield* ownershipRefusal(place.roles, heir.value)
          if (Option.isSome(refused)) return yield* refused.value
        }

        yield* checkChannelField(guildId, "system_channel_id", fields.systemChannelId, 0)
        yield* checkChannelField(guildId, "rules_channel_id", fields.rulesChannelId, 0)
        yield* checkChannelField(guildId, "public_updates_channel_id", fields.publicUpdatesChannelId, 0)
        yield* checkChannelField(guildId, "afk_channel_id", fields.afkChannelId, 2)
        const features =
          fields.features === undefined
            ? undefined
            : [
                ...place.guild.features.filter((feature) => !MUTABLE_FEATURES.includes(feature)),
                ...MUTABLE_FEATURES.filter((feature) => fields.features?.includes(feature))
              ]
        const after = { ...place.guild, ...dropUndefined(fields), ...(features === undefined ? {} : { features }) }
        if (
          after.features.includes("COMMUNITY") &&
          (after.rulesChannelId === null || after.publicUpdatesChannelId === null)
        )
          return yield* new InvalidField({
            field: "features",
            code: "GUILD_COMMUNITY_CHANNELS_REQUIRED",
            message: "A Community server needs a rules channel and a community updates channel."
          })

        // Images are stored last: a refused change leaves nothing behind in storage.
        const patch: GuildPatch = {
          ...fields,
          ...(images.icon === undefined ? {} : { icon: yield* images.icon }),
          ...(images.banner === undefined ? {} : { banner: yield* images.banner })
        }
        let guild = place.guild
        if (editsGuild) {
          const updated = yield* repo.update(
            guildId,
            dropUndefined({ ...patch, ...(features === undefined ? {} : { features }) })
          )
          if (Option.isNone(updated)) return yield* new NoSuchGuild()
          guild = updated.value
        }
        if (ownerId !== undefined && ownerId !== guild.ownerId) {
          const transferred = yield* repo.transfer(guildId, actor.userId, ownerId)
          if (Option.isNone(transferred)) return yield* new NoSuchMember()
          guild = transferred.value
        }
        if (guild !== place.guild) yield* events.guildUpdate(guild, place.roles)
        return { guild, roles: place.roles, before: place.guild }
      })

      const remove = Spans.fn("Guilds.remove")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
        const place = yield* GuildAccess.placeIn(repo, actor, guildId)
        if (!GuildAccess.isOwner(place)) return yield* new MissingPermission({ needed: "owner" })
        return (yield* dissolve(place.guild)) ? Option.some(place.guild) : Option.none<Guild>()
      })

      /** false when it was gone already. */
      const dissolve = Effect.fnUntraced(function* (guild: Guild) {
        const memberIds = yield* allMemberIds(guild.id)
        const channels = yield* repo.channels(guild.id)
        if (!(yield* repo.remove(guild.id))) return false
        yield* tallies.gauge("guilds", -1)
        yield* events.guildDelete(guild.id, memberIds)
        // what other domains kept in its channels (messages) goes too
        yield* contents.channelsRemoved(channels.map((channel) => channel.id))
        return true
      })

      const allMembers = (guildId: Snowflake.Snowflake) =>
        Effect.gen(function* () {
          const members: Array<Member> = []
          let after: Snowflake.Snowflake | undefined
          for (;;) {
            const page = yield* repo.members(guildId, { after, limit: 1000 })
            members.push(...page)
            if (page.length < 1000) return members
            after = page[page.length - 1]?.userId
          }
        })

      const allMemberIds = (guildId: Snowflake.Snowflake) =>
        Effect.map(allMembers(guildId), (members) => members.map((member) => member.userId))

      const mine = Spans.fn("Guilds.mine")(function* (actor: GuildAccess.Actor, page: Page) {
        const guilds = yield* repo.guildsPage(actor.userId, page)
        return yield* Effect.forEach(
          guilds,
          (guild) =>
            Effect.map(
              Effect.all([repo.roles(guild.id), repo.member(guild.id, actor.userId)], { concurrency: 2 }),
              ([roles, member]): Listed => ({
                guild,
                owner: guild.ownerId === actor.userId,
                permissions: Option.isSome(member) ? GuildAccess.permissionsOf(guild, roles, member.value) : 0n
              })
            ),
          { concurrency: 8 }
        )
      })

      const leave = Spans.fn("Guilds.leave")(function* (actor: GuildAccess.Actor, guildId: Snowflake.Snowflake) {
        const guild = yield* GuildAccess.findGuild(repo, guildId)
        if (guild.ownerId === actor.userId) return yield* new OwnerCannotLeave()
        const departure = yield* repo.removeMember(guildId, actor.userId)
        if (Option.isNone(departure)) return yield* new NoSuchGuild()
        yield* events.memberRemove(guildId, actor.userId, departure.value)
      })

      /** The member who inherits the guild: `heir` if they may own it, else the longest-standing who may. */
      const successorOf = Effect.fnUntraced(function* (
        guildId: Snowflake.Snowflake,
        leaving: Snowflake.Snowflake,
        heir: Snowflake.Snowflake
      ) {
        const roles = yield* repo.roles(guildId)
        const mayOwn = (member: Member) =>
          Effect.map(ownershipRefusal(roles, member), (refused) => member.userId !== leaving && Option.isNone(refused))
        const preferred = yield* repo.member(guildId, heir)
        if (Option.isSome(preferred) && (yield* mayOwn(preferred.value))) return Option.some(heir)
        const members = yield* allMembers(guildId)
        members.sort((a, b) => DateTime.toEpochMillis(a.joinedAt) - DateTime.toEpochMillis(b.joinedAt))
        for (const member of members) if (yield* mayOwn(member)) return Option.some(member.userId)
        return Option.none<Snowflake.Snowflake>()
      })

      const removeBot = Spans.fn("Guilds.removeBot")(function* (
        botId: Snowflake.Snowflake,
        guildId: Snowflake.Snowflake,
        heir: Snowflake.Snowflake
      ) {
        const guild = yield* repo.find(guildId)
        if (Option.isNone(guild)) return
        if (guild.value.ownerId === botId) {
          const successor = yield* successorOf(guildId, botId, heir)
          if (Option.isNone(successor)) {
            yield* dissolve(guild.value)
            return
          }
          const transferred = yield* repo.transfer(guildId, botId, successor.value)
          // not handed over (the successor left meanwhile): the bot stays rather than leave its
          // guild ownerless; the next removal (or the owner's) tries again
          if (Option.isNone(transferred)) return
          yield* events.guildUpdate(transferred.value, yield* repo.roles(guildId))
        }
        const departure = yield* repo.removeMember(guildId, botId)
        if (Option.isSome(departure)) yield* events.memberRemove(guildId, botId, departure.value)
      })

      const addBot = Spans.fn("Guilds.addBot")(function* (
        actor: GuildAccess.Actor,
        guildId: Snowflake.Snowflake,
        bot: { readonly userId: Snowflake.Snowflake; readonly name: string },
        permissions: bigint
      ) {
        const place = yield* GuildAccess.placeIn(repo, actor, guildId)
        yield* GuildAccess.requirePermission(place, Permissions.Flags.ManageGuild, "ManageGuild")
        yield* GuildAccess.requireHolds(place, permissions)
        const existing = yield* repo.member(guildId, bot.userId)
        if (Option.isSome(existing)) return existing.value
        if (Option.isSome(yield* repo.findBan(guildId, bot.userId))) return yield* new BannedFromGuild()
        const now = yield* DateTime.now
        const role: Role | null =
          permissions === 0n
            ? null
            : {
                id: yield* ids.next,
                guildId,
                name: bot.name.slice(0, 100),
                permissions,
                position: 1,
                color: 0,
                hoist: false,
                mentionable: false,
                managed: true,
                botId: bot.userId
              }
        const lifted =
          role === null ? [] : yield* Effect.andThen(repo.createRole(role), makeRoomAtBottom(repo, guildId, role.id))
        const member: Member = {
          guildId,
          userId: bot.userId,
          nick: null,
          roleIds: role === null ? [] : [role.id],
          joinedAt: now
        }
        // Bots are not held to the users' guild cap.
        const joined = yield* repo.join(member, null).pipe(
          Effect.catchTag("GuildLimitReached", () => Effect.succeed(false)),
          Effect.tapError(() => (role === null ? Effect.void : repo.deleteRole(guildId, role.id)))
        )
        if (!joined) {
          if (role !== null) yield* repo.deleteRole(guildId, role.id)
          return Option.getOrElse(yield* repo.member(guildId, bot.userId), () => member)
        }
        if (role !== null) yield* events.roleCreate(role)
        yield* Effect.forEach(lifted, events.roleUpdate, { discard: true })
        yield* events.memberAdd(member)
        yield* events.guildCreate(guildId, bot.userId)
        return member
      })

      return Guilds.of({
        create,
        read: (actor, guildId) =>
          Effect.map(GuildAccess.placeIn(repo, actor, guildId), (place) => ({
            guild: place.guild,
            roles: place.roles
          })),
        update,
        remove,
        mine,
        memberCounts: repo.memberCounts,
        leave,
        addBot,
        removeBot
      })
    })
  )
}
