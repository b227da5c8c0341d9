/**
 * The messages domain over the domains that answer its ports: where a caller stands in a channel
 * comes from the guilds domain (Channels.access: the channel, the caller's permissions with
 * overwrites, the guild's verification level), what an author's account allows (birth date,
 * verified address or phone, account age) from the accounts domain's AccountLookup, how long a
 * message the author may write from billing (4000 with Plus).
 */
import { AccountLookup } from "@veche/auth"
import { Billing } from "@veche/billing"
import { Channels } from "@veche/guilds"
import { AuthorLimits, AuthorStanding, ChannelAccess, MessagesDomain, MessagesErrors } from "@veche/messages"
import type { EventBus, Snowflake } from "@veche/platform"
import type { PersonalData, PublicUsers } from "@veche/users"
import { Effect, Layer, Option } from "effect"

const channelAccess = Layer.effect(
  ChannelAccess.ChannelAccess,
  Effect.map(Effect.service(Channels.Channels), (channels) =>
    ChannelAccess.ChannelAccess.of({
      place: (actor, channelId) =>
        channels.access(actor, channelId).pipe(
          Effect.map(
            ({ place, channel, permissions }): ChannelAccess.ChannelPlace => ({
              channelId: channel.id,
              guildId: channel.guildId,
              channelType: channel.type,
              nsfw: channel.nsfw,
              rateLimitPerUser: channel.rateLimitPerUser,
              permissions,
              verificationLevel: place.guild.verificationLevel,
              owner: place.guild.ownerId === place.member.userId,
              hasRoles: place.member.roleIds.length > 0,
              joinedAt: place.member.joinedAt,
              roleIds: place.roles.map((role) => role.id)
            })
          ),
          Effect.catchTags({
            NoSuchChannel: () => Effect.fail(new MessagesErrors.NoSuchChannel()),
            NoAccess: () => Effect.fail(new MessagesErrors.NoAccess())
          })
        )
    })
  )
)

const authorStanding = Layer.effect(
  AuthorStanding.AuthorStanding,
  Effect.map(Effect.service(AccountLookup.AccountLookup), (accounts) =>
    AuthorStanding.AuthorStanding.of({
      read: (userId) =>
        Effect.map(
          accounts.read(userId),
          Option.map((facts) => ({
            dateOfBirth: facts.dateOfBirth,
            emailVerified: facts.emailVerified,
            phoneVerified: facts.phoneVerified,
            createdAt: facts.createdAt
          }))
        )
    })
  )
)

const authorLimits = Layer.effect(
  AuthorLimits.AuthorLimits,
  Effect.map(Effect.service(Billing.Billing), (billing) => ({
    contentLength: (userId: Snowflake.Snowflake) =>
      Effect.map(billing.userLimits(userId), (limits) => limits.messageLength)
  }))
)

export const layer: Layer.Layer<
  MessagesDomain.Services,
  never,
  | MessagesDomain.Repositories
  | Channels.Channels
  | AccountLookup.AccountLookup
  | PublicUsers.PublicUsers
  | PersonalData.PersonalData
  | EventBus.EventBus
  | Snowflake.SnowflakeGenerator
  | Billing.Billing
> = MessagesDomain.layer.pipe(Layer.provide(Layer.mergeAll(channelAccess, authorStanding, authorLimits)))
