/**
 * Messages in guild text channels: sending (permissions, slow mode, age-restricted channels, the
 * guild's verification level, mentions and replies), history by cursor, reading, editing one's own,
 * deleting (one's own, or any with Manage Messages), typing and pins (at most 50). Each change
 * publishes its dispatch (MESSAGE_CREATE/UPDATE/DELETE, TYPING_START, CHANNEL_PINS_UPDATE) to the
 * channel's guild on the EventBus; the gateway delivers it. Answers are the wire message object.
 */
import * as Permissions from "@veche/guilds/Permissions"
import { EventBus, Snowflake, Spans, Tallies } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { AuthorLimits } from "./AuthorLimits.ts"
import { AuthorStanding } from "./AuthorStanding.ts"
import { type Actor, ChannelAccess, type ChannelPlace } from "./ChannelAccess.ts"
import * as Mentions from "./Mentions.ts"
import { type Cursor, MAX_PINS, type Message } from "./Message.ts"
// Brings this domain's dispatches into platform's registry, so the EventBus accepts MESSAGE_* here.
import type {} from "./MessageDispatches.ts"
import type * as MessageSchemas from "./MessageSchemas.ts"
import type { NoSuchChannel } from "./MessagesErrors.ts"
import {
  AgeRestricted,
  ContentTooLong,
  EmptyMessage,
  MissingPermission,
  NoAccess,
  NoSuchMessage,
  NoSuchReference,
  NotAuthor,
  NotTextChannel,
  PinLimitReached,
  SlowmodeActive,
  VerificationRequired
} from "./MessagesErrors.ts"
import { MessagesRepo } from "./MessagesRepo.ts"
import * as MessageViews from "./MessageViews.ts"

/** What a sender asks to post (the route's body, decoded). */
export interface Draft {
  /** "" when the body has none. */
  readonly content: string
  readonly embeds: ReadonlyArray<MessageSchemas.Embed>
  readonly tts: boolean
  readonly nonce: MessageSchemas.Nonce | null
  readonly allowedMentions?: Mentions.AllowedMentions | undefined
  /** A reply: the message it answers, in the same channel. */
  readonly reference?: { readonly messageId: Snowflake.Snowflake; readonly failIfNotExists: boolean } | undefined
}

/** What an author asks to change; absent fields stay. */
export interface Change {
  readonly content?: string | null | undefined
  readonly embeds?: ReadonlyArray<MessageSchemas.Embed> | null | undefined
  readonly allowedMentions?: Mentions.AllowedMentions | undefined
}

type Access = NoSuchChannel | NoAccess | NotTextChannel | AgeRestricted

/** The guild's verification levels (as the platform counts them): account age and time in the guild. */
const ACCOUNT_AGE = Duration.minutes(5)
const MEMBERSHIP_AGE = Duration.minutes(10)
const TEXT_CHANNEL = 0

/** Whole years between a `YYYY-MM-DD` birth date and a day, by the calendar. */
export const ageOn = (dateOfBirth: string, today: DateTime.Utc): number => {
  const [year = 0, month = 1, day = 1] = dateOfBirth.split("-").map(Number)
  const parts = DateTime.toPartsUtc(today)
  const hadBirthday = parts.month > month || (parts.month === month && parts.day >= day)
  return parts.year - year - (hadBirthday ? 0 : 1)
}

export class Messages extends Context.Service<
  Messages,
  {
    readonly create: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      draft: Draft
    ) => Effect.Effect<
      MessageSchemas.Message,
      | Access
      | MissingPermission
      | EmptyMessage
      | ContentTooLong
      | SlowmodeActive
      | VerificationRequired
      | NoSuchReference
    >
    /** A page of history, newest first; without Read Message History, none. */
    readonly list: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      cursor: Cursor,
      limit: number
    ) => Effect.Effect<ReadonlyArray<MessageSchemas.Message>, Access>
    readonly get: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      messageId: Snowflake.Snowflake
    ) => Effect.Effect<MessageSchemas.Message, Access | NoSuchMessage>
    readonly edit: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      messageId: Snowflake.Snowflake,
      change: Change
    ) => Effect.Effect<MessageSchemas.Message, Access | NoSuchMessage | NotAuthor | EmptyMessage | ContentTooLong>
    readonly remove: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      messageId: Snowflake.Snowflake
    ) => Effect.Effect<void, Access | NoSuchMessage | MissingPermission>
    readonly typing: (actor: Actor, channelId: Snowflake.Snowflake) => Effect.Effect<void, Access | MissingPermission>
    /** Pinned messages, the latest pinned first; without Read Message History, none. */
    readonly pins: (
      actor: Actor,
      channelId: Snowflake.Snowflake
    ) => Effect.Effect<ReadonlyArray<MessageSchemas.Message>, Access>
    readonly pin: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      messageId: Snowflake.Snowflake
    ) => Effect.Effect<void, Access | NoSuchMessage | MissingPermission | PinLimitReached>
    readonly unpin: (
      actor: Actor,
      channelId: Snowflake.Snowflake,
      messageId: Snowflake.Snowflake
    ) => Effect.Effect<void, Access | NoSuchMessage | MissingPermission>
  }
>()("@veche/messages/Messages") {
  static readonly layer: Layer.Layer<
    Messages,
    never,
    | MessagesRepo
    | ChannelAccess
    | AuthorStanding
    | PublicUsers.PublicUsers
    | EventBus.EventBus
    | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    Messages,
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const channels = yield* ChannelAccess
      const standing = yield* AuthorStanding
      const limits = yield* AuthorLimits
      /** The author's own limit (Plus writes longer messages). */
      const fits = Effect.fnUntraced(function* (actor: Actor, content: string) {
        const max = yield* limits.contentLength(actor.userId)
        if (content.length > max) return yield* new ContentTooLong({ max })
      })
      const users = yield* PublicUsers.PublicUsers
      const bus = yield* EventBus.EventBus
      const ids = yield* Snowflake.SnowflakeGenerator
      const tallies = yield* Tallies.Tallies

      /** The caller's place in a text channel they may read, age-restricted channels checked. */
      const textChannel = Effect.fnUntraced(function* (actor: Actor, channelId: Snowflake.Snowflake) {
        const place = yield* channels.place(actor, channelId)
        if (place.channelType !== TEXT_CHANNEL) return yield* new NotTextChannel()
        if (place.nsfw && !actor.bot) {
          const facts = yield* standing.read(actor.userId)
          if (Option.isSome(facts) && ageOn(facts.value.dateOfBirth, yield* DateTime.now) < 18)
            return yield* new AgeRestricted()
        }
        return place
      })

      const require = (place: ChannelPlace, flag: Permissions.Flag) =>
        Permissions.has(place.permissions, Permissions.Flags[flag])
          ? Effect.void
          : Effect.fail(new MissingPermission({ needed: flag }))

      const readsHistory = (place: ChannelPlace) =>
        Permissions.has(place.permissions, Permissions.Flags.ReadMessageHistory)

      /** The guild's verification level; the owner, bots and members with a role pass, as on the platform. */
      const verify = Effect.fnUntraced(function* (actor: Actor, place: ChannelPlace) {
        const level = place.verificationLevel
        if (level === 0 || actor.bot || place.owner || place.hasRoles) return
        const facts = yield* standing.read(actor.userId)
        const now = yield* DateTime.now
        const passes = Option.match(facts, {
          onNone: () => false,
          onSome: (account) =>
            (level < 1 || account.emailVerified || account.phoneVerified) &&
            (level < 2 || Duration.isGreaterThanOrEqualTo(DateTime.distance(account.createdAt, now), ACCOUNT_AGE)) &&
            (level < 3 || Duration.isGreaterThanOrEqualTo(DateTime.distance(place.joinedAt, now), MEMBERSHIP_AGE)) &&
            (level < 4 || account.phoneVerified)
        })
        if (!passes) return yield* new VerificationRequired({ level })
      })

      /** Users by id for a set of messages (bots known from the messages themselves). */
      const usersOf = (messages: ReadonlyArray<Message>) => {
        const bots = new Set(messages.filter((m) => m.authorBot).map((m) => m.authorId))
        return users.findMany(MessageViews.userIdsOf(messages), (id) => bots.has(id))
      }

      /** The messages replies refer to, by id (null when gone): one lookup per channel of the page. */
      const referencesOf = Effect.fnUntraced(function* (messages: ReadonlyArray<Message>) {
        const wanted = new Map<Snowflake.Snowflake, Set<Snowflake.Snowflake>>()
        for (const message of messages) {
          if (message.referencedMessageId === null) continue
          const ids = wanted.get(message.channelId) ?? new Set()
          wanted.set(message.channelId, ids.add(message.referencedMessageId))
        }
        const found = new Map<string, Message | null>()
        for (const [channelId, ids] of wanted) {
          for (const id of ids) found.set(id, null)
          for (const message of yield* repo.findMany(channelId, [...ids])) found.set(message.id, message)
        }
        return found
      })

      const views = Effect.fnUntraced(function* (messages: ReadonlyArray<Message>, withNonce = false) {
        const references = yield* referencesOf(messages)
        const referenced = [...references.values()].filter((m): m is Message => m !== null)
        const shown = yield* usersOf([...messages, ...referenced])
        return messages.map((message) =>
          MessageViews.message(
            message,
            shown,
            message.referencedMessageId === null ? undefined : (references.get(message.referencedMessageId) ?? null),
            withNonce
          )
        )
      })
      const view = (message: Message, withNonce = false) =>
        Effect.map(views([message], withNonce), (shown) => shown[0] as MessageSchemas.Message)

      /** The mentions a message makes that exist: users with a row, roles of the guild. */
      const resolveMentions = Effect.fnUntraced(function* (
        place: ChannelPlace,
        content: string,
        allowedMentions: Mentions.AllowedMentions | undefined,
        repliedAuthor: Snowflake.Snowflake | null
      ) {
        const mayEveryone = Permissions.has(place.permissions, Permissions.Flags.MentionEveryone)
        const wanted = Mentions.allowed(Mentions.written(content), allowedMentions, mayEveryone)
        const userIds = [...wanted.userIds]
        if (repliedAuthor !== null && Mentions.mentionsRepliedUser(allowedMentions) && !userIds.includes(repliedAuthor))
          userIds.push(repliedAuthor)
        const existing = yield* users.findMany(userIds)
        const roles = new Set<string>(place.roleIds)
        return {
          mentionUserIds: userIds.filter((id) => existing.has(id)),
          // @everyone's role is the guild's id: it is mentioned as @everyone, never as a role
          mentionRoleIds: wanted.roleIds.filter((id) => roles.has(id) && id !== place.guildId),
          mentionEveryone: wanted.everyone
        }
      })

      const toGuild = (guildId: Snowflake.Snowflake, dispatch: Parameters<typeof bus.publish>[0]) =>
        bus.publish({ ...dispatch, userIds: [], guildIds: [guildId] })

      const create = Spans.fn("Messages.create")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        draft: Draft
      ) {
        const place = yield* textChannel(actor, channelId)
        yield* require(place, "SendMessages")
        if (draft.content.trim() === "" && draft.embeds.length === 0) return yield* new EmptyMessage()
        yield* fits(actor, draft.content)
        yield* verify(actor, place)
        let referenced: Message | null = null
        if (draft.reference !== undefined) {
          yield* require(place, "ReadMessageHistory")
          const found = yield* repo.find(channelId, draft.reference.messageId)
          if (Option.isSome(found)) referenced = found.value
          else if (draft.reference.failIfNotExists) return yield* new NoSuchReference()
        }
        const now = yield* DateTime.now
        // Slow mode spares those who may manage the channel or its messages, as on the platform.
        const exempt =
          Permissions.has(place.permissions, Permissions.Flags.ManageMessages) ||
          Permissions.has(place.permissions, Permissions.Flags.ManageChannels)
        if (place.rateLimitPerUser > 0 && !exempt) {
          const wait = yield* repo.claimSlowmode(channelId, actor.userId, now, place.rateLimitPerUser)
          if (Option.isSome(wait)) return yield* new SlowmodeActive({ retryAfterMs: wait.value })
        }
        const mentions = yield* resolveMentions(
          place,
          draft.content,
          draft.allowedMentions,
          referenced === null ? null : referenced.authorId
        )
        const message: Message = {
          id: yield* ids.next,
          channelId,
          guildId: place.guildId,
          authorId: actor.userId,
          authorBot: actor.bot,
          content: draft.content,
          embeds: draft.embeds,
          ...mentions,
          nonce: draft.nonce,
          tts: draft.tts && Permissions.has(place.permissions, Permissions.Flags.SendTTSMessages),
          type: referenced === null ? 0 : 19,
          referencedMessageId: referenced === null ? null : referenced.id,
          pinnedAt: null,
          editedAt: null,
          createdAt: now
        }
        yield* repo.insert(message)
        yield* tallies.message({ guildId: place.guildId, at: now })
        const shown = yield* view(message, true)
        yield* toGuild(place.guildId, { type: "MESSAGE_CREATE", data: shown, userIds: [] })
        return shown
      })

      const list = Spans.fn("Messages.list")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        cursor: Cursor,
        limit: number
      ) {
        const place = yield* textChannel(actor, channelId)
        if (!readsHistory(place)) return []
        return yield* views(yield* repo.page(channelId, cursor, limit))
      })

      /** A message of the channel the caller may read. */
      const readable = Effect.fnUntraced(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        messageId: Snowflake.Snowflake
      ) {
        const place = yield* textChannel(actor, channelId)
        // Without the history permission a message is out of reach, as on the platform.
        if (!readsHistory(place)) return yield* new NoAccess()
        const found = yield* repo.find(channelId, messageId)
        if (Option.isNone(found)) return yield* new NoSuchMessage()
        return { place, message: found.value }
      })

      const edit = Spans.fn("Messages.edit")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        messageId: Snowflake.Snowflake,
        change: Change
      ) {
        const place = yield* textChannel(actor, channelId)
        const found = yield* repo.find(channelId, messageId)
        if (Option.isNone(found)) return yield* new NoSuchMessage()
        const before = found.value
        if (before.authorId !== actor.userId) return yield* new NotAuthor()
        const content = change.content === undefined ? before.content : (change.content ?? "")
        const embeds = change.embeds === undefined ? before.embeds : (change.embeds ?? [])
        if (content.trim() === "" && embeds.length === 0) return yield* new EmptyMessage()
        if (change.content !== undefined) yield* fits(actor, content)
        const referencedAuthor =
          before.referencedMessageId === null
            ? null
            : Option.getOrNull(Option.map(yield* repo.find(channelId, before.referencedMessageId), (m) => m.authorId))
        const mentions = yield* resolveMentions(
          place,
          content,
          change.allowedMentions,
          // a reply keeps pinging whom it pinged
          referencedAuthor !== null && before.mentionUserIds.includes(referencedAuthor) ? referencedAuthor : null
        )
        const updated = yield* repo.update(channelId, messageId, {
          content,
          embeds,
          ...mentions,
          editedAt: yield* DateTime.now
        })
        if (Option.isNone(updated)) return yield* new NoSuchMessage()
        const shown = yield* view(updated.value)
        yield* toGuild(place.guildId, { type: "MESSAGE_UPDATE", data: shown, userIds: [] })
        return shown
      })

      const remove = Spans.fn("Messages.remove")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        messageId: Snowflake.Snowflake
      ) {
        const place = yield* textChannel(actor, channelId)
        const found = yield* repo.find(channelId, messageId)
        if (Option.isNone(found)) return yield* new NoSuchMessage()
        if (found.value.authorId !== actor.userId) yield* require(place, "ManageMessages")
        const removed = yield* repo.remove(channelId, messageId)
        if (Option.isNone(removed)) return yield* new NoSuchMessage()
        yield* toGuild(place.guildId, {
          type: "MESSAGE_DELETE",
          data: { id: messageId, channel_id: channelId, guild_id: place.guildId },
          userIds: []
        })
        if (removed.value.pinnedAt !== null) yield* pinsUpdate(place)
      })

      const typing = Spans.fn("Messages.typing")(function* (actor: Actor, channelId: Snowflake.Snowflake) {
        const place = yield* textChannel(actor, channelId)
        yield* require(place, "SendMessages")
        const now = yield* DateTime.now
        yield* toGuild(place.guildId, {
          type: "TYPING_START",
          data: {
            channel_id: channelId,
            guild_id: place.guildId,
            user_id: actor.userId,
            timestamp: Math.floor(DateTime.toEpochMillis(now) / 1000)
          },
          userIds: []
        })
      })

      const pinsUpdate = (place: ChannelPlace) =>
        Effect.flatMap(repo.pinned(place.channelId), (pinned) => {
          const latest = pinned[0]?.pinnedAt ?? null
          return toGuild(place.guildId, {
            type: "CHANNEL_PINS_UPDATE",
            data: {
              guild_id: place.guildId,
              channel_id: place.channelId,
              last_pin_timestamp: latest === null ? null : DateTime.formatIso(latest)
            },
            userIds: []
          })
        })

      const pins = Spans.fn("Messages.pins")(function* (actor: Actor, channelId: Snowflake.Snowflake) {
        const place = yield* textChannel(actor, channelId)
        if (!readsHistory(place)) return []
        return yield* views(yield* repo.pinned(channelId))
      })

      const pin = Spans.fn("Messages.pin")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        messageId: Snowflake.Snowflake
      ) {
        const place = yield* textChannel(actor, channelId)
        yield* require(place, "ManageMessages")
        const result = yield* repo.pin(channelId, messageId, yield* DateTime.now, MAX_PINS)
        if (result === "missing") return yield* new NoSuchMessage()
        if (result === "full") return yield* new PinLimitReached()
        if (result === "pinned") yield* pinsUpdate(place)
      })

      const unpin = Spans.fn("Messages.unpin")(function* (
        actor: Actor,
        channelId: Snowflake.Snowflake,
        messageId: Snowflake.Snowflake
      ) {
        const place = yield* textChannel(actor, channelId)
        yield* require(place, "ManageMessages")
        if (yield* repo.unpin(channelId, messageId)) return yield* pinsUpdate(place)
        if (Option.isNone(yield* repo.find(channelId, messageId))) return yield* new NoSuchMessage()
      })

      return Messages.of({
        create,
        list,
        get: (actor, channelId, messageId) =>
          Effect.flatMap(readable(actor, channelId, messageId), ({ message }) => view(message)),
        edit,
        remove,
        typing,
        pins,
        pin,
        unpin
      })
    })
  )
}
