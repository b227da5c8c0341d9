/**
 * The port through which the messages domain asks the guilds domain where a caller stands in a
 * channel: the channel's kind and settings, the caller's permissions there (overwrites applied),
 * and what the guild's verification level looks at. The kit answers it over guilds' Channels.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, type Effect } from "effect"
import type { NoAccess, NoSuchChannel } from "./MessagesErrors.ts"

/** The caller: a user or a bot. */
export interface Actor {
  readonly userId: Snowflake.Snowflake
  readonly bot: boolean
}

export interface ChannelPlace {
  readonly channelId: Snowflake.Snowflake
  readonly guildId: Snowflake.Snowflake
  /** 0 text, 2 voice, 4 category (as on the wire). */
  readonly channelType: number
  /** Age-restricted. */
  readonly nsfw: boolean
  /** Slow mode: seconds between one member's messages (0 none). */
  readonly rateLimitPerUser: number
  /** The caller's permissions in the channel (all of them for the owner and administrators). */
  readonly permissions: bigint
  /** 0 none … 4 very high. */
  readonly verificationLevel: number
  readonly owner: boolean
  /** The caller holds a role besides @everyone (which lifts the verification level, as on the platform). */
  readonly hasRoles: boolean
  readonly joinedAt: DateTime.Utc
  /** Every role of the guild (mentions name only these). */
  readonly roleIds: ReadonlyArray<Snowflake.Snowflake>
}

export class ChannelAccess extends Context.Service<
  ChannelAccess,
  {
    /** 10003 when there is no such channel, 50001 when the caller is not in its guild or cannot see it. */
    readonly place: (
      actor: Actor,
      channelId: Snowflake.Snowflake
    ) => Effect.Effect<ChannelPlace, NoSuchChannel | NoAccess>
  }
>()("@veche/messages/ChannelAccess") {}
