/**
 * What the guild services announce on the EventBus, in the mirrored platform's dispatch names and
 * payloads (declared in GuildDispatches, built by GuildViews). Guild-wide events name the guild as
 * their audience (the gateway resolves its members); a member who leaves, is kicked or banned is
 * told apart, as they are no longer among the members.
 */
import { type Dispatch, EventBus, type Snowflake } from "@veche/platform"
import { type PublicUser, PublicUsers } from "@veche/users"
import { Context, Effect, Layer, Option } from "effect"
import type { Ban, Channel, Guild, Invite, Member, Role } from "./Guild.ts"
import { isBotMember } from "./GuildBots.ts"
import type { GuildDispatch } from "./GuildDispatches.ts"
import { GuildPremium } from "./GuildPremium.ts"
import { GuildSnapshots } from "./GuildSnapshots.ts"
import { type Departure, GuildsRepo } from "./GuildsRepo.ts"
import * as GuildViews from "./GuildViews.ts"

type Publish<A extends ReadonlyArray<unknown>> = (...args: A) => Effect.Effect<void>

export class GuildEvents extends Context.Service<
  GuildEvents,
  {
    /** The whole guild to a member who just joined. */
    readonly guildCreate: Publish<[guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake]>
    readonly guildUpdate: Publish<[guild: Guild, roles: ReadonlyArray<Role>]>
    /** To the members it had (read before it was dissolved). */
    readonly guildDelete: Publish<[guildId: Snowflake.Snowflake, memberIds: ReadonlyArray<Snowflake.Snowflake>]>
    readonly memberAdd: Publish<[member: Member]>
    readonly memberUpdate: Publish<[member: Member]>
    /**
     * GUILD_MEMBER_REMOVE to the guild and GUILD_DELETE to the member who left, then GUILD_ROLE_DELETE
     * for the managed roles that went with them (a bot's): every way out of a guild announces it here.
     */
    readonly memberRemove: Publish<[guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake, departure: Departure]>
    readonly banAdd: Publish<[ban: Ban]>
    readonly banRemove: Publish<[guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake]>
    readonly roleCreate: Publish<[role: Role]>
    readonly roleUpdate: Publish<[role: Role]>
    readonly roleDelete: Publish<[guildId: Snowflake.Snowflake, roleId: Snowflake.Snowflake]>
    readonly channelCreate: Publish<[channel: Channel]>
    readonly channelUpdate: Publish<[channel: Channel]>
    readonly channelDelete: Publish<[channel: Channel]>
    readonly inviteCreate: Publish<[invite: Invite]>
    readonly inviteDelete: Publish<[invite: Invite]>
  }
>()("@veche/guilds/GuildEvents") {
  static readonly layer: Layer.Layer<
    GuildEvents,
    never,
    EventBus.EventBus | GuildsRepo | PublicUsers.PublicUsers | GuildSnapshots
  > = Layer.effect(
    GuildEvents,
    Effect.gen(function* () {
      const bus = yield* EventBus.EventBus
      const repo = yield* GuildsRepo
      const users = yield* PublicUsers.PublicUsers
      const snapshots = yield* GuildSnapshots
      const premium = yield* GuildPremium

      /** To the guild's members, whom the gateway resolves. */
      const toGuild = (guildId: Snowflake.Snowflake, dispatch: Dispatch.WithoutAudience<GuildDispatch>) =>
        bus.publish({ ...dispatch, userIds: [], guildIds: [guildId] })
      const withUser = (
        userId: Snowflake.Snowflake,
        bot: boolean,
        f: (user: PublicUser.PublicUser) => Effect.Effect<void>
      ) => Effect.flatMap(users.find(userId, bot), Option.match({ onNone: () => Effect.void, onSome: f }))
      const memberEvent = (type: "GUILD_MEMBER_ADD" | "GUILD_MEMBER_UPDATE") => (member: Member) =>
        Effect.flatMap(repo.roles(member.guildId), (roles) =>
          withUser(member.userId, isBotMember(roles, member), (user) =>
            toGuild(member.guildId, { type, data: GuildViews.guildMemberAdd(member, user) })
          )
        )

      return GuildEvents.of({
        guildCreate: (guildId, userId) =>
          Effect.flatMap(
            snapshots.guildCreate(guildId, userId),
            Option.match({
              onNone: () => Effect.void,
              onSome: (data) => bus.publish({ type: "GUILD_CREATE", userIds: [userId], data })
            })
          ),
        guildUpdate: (guild, roles) =>
          Effect.flatMap(premium.of(guild.id), (tier) =>
            toGuild(guild.id, { type: "GUILD_UPDATE", data: GuildViews.guildUpdate(guild, roles, tier) })
          ),
        guildDelete: (guildId, memberIds) =>
          bus.publish({ type: "GUILD_DELETE", userIds: memberIds, data: GuildViews.guildDelete(guildId) }),
        memberAdd: memberEvent("GUILD_MEMBER_ADD"),
        memberUpdate: memberEvent("GUILD_MEMBER_UPDATE"),
        memberRemove: (guildId, userId, departure) =>
          Effect.andThen(
            withUser(userId, false, (user) =>
              Effect.andThen(
                toGuild(guildId, { type: "GUILD_MEMBER_REMOVE", data: GuildViews.guildMemberRemove(guildId, user) }),
                bus.publish({ type: "GUILD_DELETE", userIds: [userId], data: GuildViews.guildDelete(guildId) })
              )
            ),
            Effect.forEach(
              departure.roleIds,
              (roleId) =>
                toGuild(guildId, { type: "GUILD_ROLE_DELETE", data: GuildViews.guildRoleDelete(guildId, roleId) }),
              { discard: true }
            )
          ),
        banAdd: (ban) =>
          withUser(ban.userId, false, (user) =>
            toGuild(ban.guildId, { type: "GUILD_BAN_ADD", data: GuildViews.guildBanAdd(ban.guildId, user) })
          ),
        banRemove: (guildId, userId) =>
          withUser(userId, false, (user) =>
            toGuild(guildId, { type: "GUILD_BAN_REMOVE", data: GuildViews.guildBanRemove(guildId, user) })
          ),
        roleCreate: (role) =>
          toGuild(role.guildId, { type: "GUILD_ROLE_CREATE", data: GuildViews.guildRoleCreate(role) }),
        roleUpdate: (role) =>
          toGuild(role.guildId, { type: "GUILD_ROLE_UPDATE", data: GuildViews.guildRoleUpdate(role) }),
        roleDelete: (guildId, roleId) =>
          toGuild(guildId, { type: "GUILD_ROLE_DELETE", data: GuildViews.guildRoleDelete(guildId, roleId) }),
        channelCreate: (channel) =>
          toGuild(channel.guildId, { type: "CHANNEL_CREATE", data: GuildViews.channelCreate(channel) }),
        channelUpdate: (channel) =>
          toGuild(channel.guildId, { type: "CHANNEL_UPDATE", data: GuildViews.channelUpdate(channel) }),
        channelDelete: (channel) =>
          toGuild(channel.guildId, { type: "CHANNEL_DELETE", data: GuildViews.channelDelete(channel) }),
        inviteCreate: (invite) =>
          Effect.flatMap(invite.inviterId === null ? Effect.succeedNone : users.find(invite.inviterId), (inviter) =>
            toGuild(invite.guildId, {
              type: "INVITE_CREATE",
              data: GuildViews.inviteCreate(invite, Option.getOrNull(inviter))
            })
          ),
        inviteDelete: (invite) =>
          toGuild(invite.guildId, { type: "INVITE_DELETE", data: GuildViews.inviteDelete(invite) })
      })
    })
  )
}
