/**
 * The views against their schemas (every field present, nothing extra, JSON-safe) and against
 * discord-api-types: each output is assigned to the v10 type at compile time, which is the best proof
 * that bot libraries read what we send.
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { PublicUser } from "@veche/users"
import type {
  APIBan,
  APIChannel,
  APIExtendedInvite,
  APIGuild,
  APIGuildMember,
  APIInvite,
  APIRole,
  GatewayChannelCreateDispatchData,
  GatewayGuildBanAddDispatchData,
  GatewayGuildCreateDispatchData,
  GatewayGuildDeleteDispatchData,
  GatewayGuildMemberAddDispatchData,
  GatewayGuildMemberRemoveDispatchData,
  GatewayGuildMemberUpdateDispatchData,
  GatewayGuildRoleDeleteDispatchData,
  GatewayGuildRoleModifyDispatchData,
  GatewayGuildUpdateDispatchData,
  GatewayInviteCreateDispatchData,
  GatewayInviteDeleteDispatchData,
  RESTAPIPartialCurrentUserGuild
} from "discord-api-types/v10"
import { DateTime, Schema } from "effect"
import * as Guild from "../src/Guild.ts"
import * as GuildPremium from "../src/GuildPremium.ts"
import * as GuildSchemas from "../src/GuildSchemas.ts"
import * as GuildViews from "../src/GuildViews.ts"
import * as Permissions from "../src/Permissions.ts"

/**
 * A v10 type with its string enums (GuildFeature, Locale) widened to string and its arrays read-only:
 * our feature and locale fields are plain strings and our schemas' arrays are `ReadonlyArray`.
 * Everything else (required keys, nullability, numeric enums, literals) is checked as v10 has it.
 */
type Loose<T> = T extends string
  ? string
  : T extends number | boolean | bigint | null | undefined
    ? T
    : T extends ReadonlyArray<infer U>
      ? ReadonlyArray<Loose<U>>
      : T extends object
        ? { readonly [K in keyof T]: Loose<T[K]> }
        : T

const id = (n: number) => Snowflake.Snowflake.make(String(200_000_000_000_000_000n + BigInt(n)))
const at = (iso: string) => DateTime.makeUnsafe(iso)

const GUILD = id(1)
const OWNER = id(2)
const BOT = id(3)
const TEXT = id(10)
const VOICE = id(11)
const CATEGORY = id(12)
const MODS = id(20)
const BOT_ROLE = id(21)

const guildRecord: Guild.Guild = {
  id: GUILD,
  name: "Veche",
  icon: "a1b2c3",
  banner: null,
  description: "Town square",
  ownerId: OWNER,
  verificationLevel: 1,
  defaultMessageNotifications: 1,
  explicitContentFilter: 2,
  systemChannelId: TEXT,
  rulesChannelId: null,
  publicUpdatesChannelId: null,
  afkChannelId: VOICE,
  afkTimeout: 300,
  preferredLocale: "ru",
  features: ["COMMUNITY"],
  createdAt: at("2024-01-01T00:00:00Z")
}

const everyone: Guild.Role = Guild.everyoneRole(GUILD)
const mods: Guild.Role = {
  ...everyone,
  id: MODS,
  name: "mods",
  permissions: Permissions.Flags.Administrator | (1n << 40n),
  position: 2,
  color: 0x3498db,
  hoist: true
}
const botRole: Guild.Role = {
  ...everyone,
  id: BOT_ROLE,
  name: "helper",
  permissions: 0n,
  position: 1,
  managed: true,
  botId: BOT
}
const roles = [everyone, botRole, mods]

const textChannel: Guild.Channel = {
  id: TEXT,
  guildId: GUILD,
  type: 0,
  name: "general",
  position: 0,
  parentId: CATEGORY,
  topic: "hello",
  nsfw: false,
  rateLimitPerUser: 5,
  bitrate: 0,
  userLimit: 0,
  overwrites: [
    { id: GUILD, type: 0, allow: 0n, deny: Permissions.Flags.SendMessages },
    { id: OWNER, type: 1, allow: Permissions.Flags.ManageMessages, deny: 0n }
  ]
}
const voiceChannel: Guild.Channel = {
  ...textChannel,
  id: VOICE,
  type: 2,
  name: "Voice",
  topic: null,
  bitrate: 64_000,
  userLimit: 10,
  overwrites: []
}
const category: Guild.Channel = { ...textChannel, id: CATEGORY, type: 4, name: "Text", parentId: null, overwrites: [] }
const channels = [category, textChannel, voiceChannel]

const owner: PublicUser.PublicUser = {
  id: OWNER,
  username: "owner",
  discriminator: "0",
  global_name: "Owner",
  avatar: null,
  banner: null,
  accent_color: null,
  avatar_decoration_data: null,
  public_flags: 0,
  bot: false
}

const ownerMember: Guild.Member = {
  guildId: GUILD,
  userId: OWNER,
  nick: "boss",
  roleIds: [MODS],
  joinedAt: at("2024-01-01T00:00:00Z")
}

const invite: Guild.Invite = {
  code: "AbCd1234",
  guildId: GUILD,
  channelId: TEXT,
  inviterId: OWNER,
  maxAge: 86_400,
  maxUses: 0,
  uses: 3,
  temporary: false,
  createdAt: at("2024-03-01T12:00:00Z")
}

/** Through JSON and back through the schema, rejecting any key the schema does not name. */
const wire = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, value: unknown): S["Type"] =>
  Schema.decodeUnknownSync(schema as never, { onExcessProperty: "error" })(JSON.parse(JSON.stringify(value)))

describe("GuildViews", () => {
  it("guild: v10's full object, permissions as decimal strings, neutral values for what we do not model", () => {
    const view = GuildViews.guild(guildRecord, roles)
    const v10: Loose<APIGuild> = view
    expect(wire(GuildSchemas.Guild, v10)).toEqual(view)
    expect(view).toMatchObject({
      id: GUILD,
      owner_id: OWNER,
      afk_timeout: 300,
      verification_level: 1,
      preferred_locale: "ru",
      features: ["COMMUNITY"],
      emojis: [],
      stickers: [],
      splash: null,
      mfa_level: 0,
      premium_tier: 0,
      nsfw_level: 0,
      system_channel_flags: 0,
      widget_enabled: false,
      max_members: GuildViews.MAX_MEMBERS
    })
    expect(view.roles.map((r) => r.permissions)).toEqual([
      String(Permissions.DEFAULT_EVERYONE),
      "0",
      String(Permissions.Flags.Administrator | (1n << 40n))
    ])
    expect("approximate_member_count" in view).toBe(false)
    expect(GuildViews.guild(guildRecord, roles, { members: 7, presences: 2 })).toMatchObject({
      approximate_member_count: 7,
      approximate_presence_count: 2
    })
    // The record allows any integer; the wire only v10's five values.
    expect(GuildViews.guild({ ...guildRecord, afkTimeout: 1000 }, roles).afk_timeout).toBe(900)
  })

  it("role: colors, flags, and tags.bot_id only on a bot's managed role", () => {
    const view = GuildViews.role(mods)
    const v10: Loose<APIRole> = view
    expect(wire(GuildSchemas.Role, v10)).toEqual(view)
    expect(view).toEqual({
      id: MODS,
      name: "mods",
      color: 0x3498db,
      colors: { primary_color: 0x3498db, secondary_color: null, tertiary_color: null },
      hoist: true,
      icon: null,
      unicode_emoji: null,
      position: 2,
      permissions: "1099511627784",
      managed: false,
      mentionable: false,
      flags: 0
    })
    expect(GuildViews.role(botRole).tags).toEqual({ bot_id: BOT })
    expect(wire(GuildSchemas.Role, GuildViews.role(botRole)).tags).toEqual({ bot_id: BOT })
  })

  it("channel: the fields v10 sends for text, voice and category, overwrites with string allow/deny", () => {
    const text = GuildViews.channel(textChannel)
    const voice = GuildViews.channel(voiceChannel)
    const cat = GuildViews.channel(category)
    const v10: ReadonlyArray<Loose<APIChannel>> = [text, voice, cat]
    for (const view of v10) expect(wire(GuildSchemas.Channel, view)).toEqual(view)
    expect(text).toEqual({
      id: TEXT,
      type: 0,
      guild_id: GUILD,
      name: "general",
      position: 0,
      permission_overwrites: [
        { id: GUILD, type: 0, allow: "0", deny: "2048" },
        { id: OWNER, type: 1, allow: "8192", deny: "0" }
      ],
      flags: 0,
      parent_id: CATEGORY,
      topic: "hello",
      nsfw: false,
      rate_limit_per_user: 5,
      last_message_id: null
    })
    expect(voice).toMatchObject({ type: 2, bitrate: 64_000, user_limit: 10, rtc_region: null })
    expect("topic" in voice).toBe(false)
    expect(cat).toEqual({
      id: CATEGORY,
      type: 4,
      guild_id: GUILD,
      name: "Text",
      position: 0,
      permission_overwrites: [],
      flags: 0,
      parent_id: null
    })
    expect(GuildViews.channel(textChannel, id(99))).toMatchObject({ last_message_id: id(99) })
  })

  it("member and ban", () => {
    const view = GuildViews.member(ownerMember, owner)
    const v10: Loose<APIGuildMember> = view
    expect(wire(GuildSchemas.Member, v10)).toEqual(view)
    expect(view).toEqual({
      user: owner,
      nick: "boss",
      avatar: null,
      banner: null,
      roles: [MODS],
      joined_at: "2024-01-01T00:00:00.000Z",
      premium_since: null,
      deaf: false,
      mute: false,
      flags: 0,
      pending: false,
      communication_disabled_until: null
    })
    const ban = GuildViews.ban(
      { guildId: GUILD, userId: OWNER, reason: "spam", bannedBy: BOT, createdAt: at("2024-02-01T00:00:00Z") },
      owner
    )
    const v10Ban: Loose<APIBan> = ban
    expect(wire(GuildSchemas.Ban, v10Ban)).toEqual({ reason: "spam", user: owner })
  })

  it("invite: expires_at = created_at + max_age, null when max_age is 0; metadata; counts", () => {
    const parts = { invite, guild: guildRecord, channel: textChannel, inviter: owner, premium: GuildPremium.NONE }
    const view = GuildViews.invite(parts)
    const v10: Loose<APIInvite> = view
    expect(wire(GuildSchemas.Invite, v10)).toEqual(view)
    expect(view).toEqual({
      type: 0,
      code: "AbCd1234",
      guild: {
        id: GUILD,
        name: "Veche",
        splash: null,
        banner: null,
        description: "Town square",
        icon: "a1b2c3",
        features: ["COMMUNITY"],
        verification_level: 1,
        vanity_url_code: null,
        nsfw_level: 0,
        premium_subscription_count: 0
      },
      channel: { id: TEXT, name: "general", type: 0 },
      inviter: owner,
      expires_at: "2024-03-02T12:00:00.000Z"
    })
    const forever = GuildViews.invite(
      { ...parts, invite: { ...invite, maxAge: 0 }, inviter: null },
      { members: 5, presences: 1 }
    )
    expect(forever.expires_at).toBeNull()
    expect("inviter" in forever).toBe(false)
    expect(forever).toMatchObject({ approximate_member_count: 5, approximate_presence_count: 1 })

    const full = GuildViews.inviteWithMetadata(parts)
    const v10Full: Loose<APIExtendedInvite> = full
    expect(wire(GuildSchemas.InviteWithMetadata, v10Full)).toEqual(full)
    expect(full).toMatchObject({
      uses: 3,
      max_uses: 0,
      max_age: 86_400,
      temporary: false,
      created_at: "2024-03-01T12:00:00.000Z",
      expires_at: "2024-03-02T12:00:00.000Z"
    })

    const accepted = GuildViews.acceptedInvite(parts, true)
    expect(wire(GuildSchemas.AcceptedInvite, accepted)).toEqual({ ...view, new_member: true })
    // the guild's boosts as they are now
    expect(GuildViews.invite({ ...parts, premium: { tier: 1, count: 2 } }).guild).toMatchObject({
      premium_subscription_count: 2
    })
  })

  it("partial guild of GET /users/@me/guilds", () => {
    const view = GuildViews.partialGuild(guildRecord, { owner: true, permissions: Permissions.ALL })
    const v10: Loose<RESTAPIPartialCurrentUserGuild> = view
    expect(wire(GuildSchemas.PartialGuild, v10)).toEqual({
      id: GUILD,
      name: "Veche",
      icon: "a1b2c3",
      banner: null,
      owner: true,
      permissions: String(Permissions.ALL),
      features: ["COMMUNITY"]
    })
    expect(
      GuildViews.partialGuild(guildRecord, { owner: false, permissions: 0n }, { members: 2, presences: 0 })
    ).toMatchObject({ owner: false, permissions: "0", approximate_member_count: 2, approximate_presence_count: 0 })
  })

  it("GUILD_CREATE: the guild plus joined_at, large, unavailable false, member_count, members, channels, empty lists", () => {
    const view = GuildViews.guildCreate({
      guild: guildRecord,
      roles,
      channels,
      members: [{ member: ownerMember, user: owner }],
      memberCount: 51,
      joinedAt: ownerMember.joinedAt
    })
    const v10: Loose<GatewayGuildCreateDispatchData> = view
    expect(wire(GuildSchemas.GuildCreate, v10)).toEqual(view)
    const {
      joined_at,
      large,
      unavailable,
      member_count,
      members,
      channels: chans,
      threads,
      presences,
      voice_states,
      stage_instances,
      guild_scheduled_events,
      soundboard_sounds,
      ...rest
    } = view
    expect(rest).toEqual(GuildViews.guild(guildRecord, roles))
    for (const empty of [threads, presences, voice_states, stage_instances, guild_scheduled_events, soundboard_sounds])
      expect(empty).toEqual([])
    expect({ joined_at, large, unavailable, member_count }).toEqual({
      joined_at: "2024-01-01T00:00:00.000Z",
      large: true,
      unavailable: false,
      member_count: 51
    })
    expect(members).toEqual([GuildViews.member(ownerMember, owner)])
    expect(chans.map((c) => [c.id, c.type])).toEqual([
      [CATEGORY, 4],
      [TEXT, 0],
      [VOICE, 2]
    ])
    const small = GuildViews.guildCreate({
      guild: guildRecord,
      roles,
      channels,
      members: [],
      memberCount: 51,
      joinedAt: ownerMember.joinedAt,
      largeThreshold: 250
    })
    expect(small.large).toBe(false)
  })

  it("dispatch payloads in v10 shapes", () => {
    const update: Loose<GatewayGuildUpdateDispatchData> = GuildViews.guildUpdate(guildRecord, roles)
    expect(wire(GuildSchemas.GuildUpdateEvent, update)).toEqual(GuildViews.guild(guildRecord, roles))

    const left: Loose<GatewayGuildDeleteDispatchData> = GuildViews.guildDelete(GUILD)
    const outage: Loose<GatewayGuildDeleteDispatchData> = GuildViews.guildDelete(GUILD, true)
    expect(wire(GuildSchemas.GuildDeleteEvent, left)).toEqual({ id: GUILD })
    expect(wire(GuildSchemas.GuildDeleteEvent, outage)).toEqual({ id: GUILD, unavailable: true })

    const added: Loose<GatewayGuildMemberAddDispatchData> = GuildViews.guildMemberAdd(ownerMember, owner)
    const updated: Loose<GatewayGuildMemberUpdateDispatchData> = GuildViews.guildMemberUpdate(ownerMember, owner)
    expect(wire(GuildSchemas.GuildMemberEvent, added)).toEqual({
      ...GuildViews.member(ownerMember, owner),
      guild_id: GUILD
    })
    expect(updated).toEqual(added)

    const removed: Loose<GatewayGuildMemberRemoveDispatchData> = GuildViews.guildMemberRemove(GUILD, owner)
    const banned: Loose<GatewayGuildBanAddDispatchData> = GuildViews.guildBanAdd(GUILD, owner)
    expect(wire(GuildSchemas.GuildUserEvent, removed)).toEqual({ guild_id: GUILD, user: owner })
    expect(wire(GuildSchemas.GuildUserEvent, banned)).toEqual(GuildViews.guildBanRemove(GUILD, owner))

    const roleCreated: Loose<GatewayGuildRoleModifyDispatchData> = GuildViews.guildRoleCreate(botRole)
    expect(wire(GuildSchemas.GuildRoleEvent, roleCreated)).toEqual({ guild_id: GUILD, role: GuildViews.role(botRole) })
    expect(GuildViews.guildRoleUpdate(mods).role.permissions).toBe("1099511627784")
    const roleDeleted: Loose<GatewayGuildRoleDeleteDispatchData> = GuildViews.guildRoleDelete(GUILD, MODS)
    expect(wire(GuildSchemas.GuildRoleDeleteEvent, roleDeleted)).toEqual({ guild_id: GUILD, role_id: MODS })

    const channelCreated: Loose<GatewayChannelCreateDispatchData> = GuildViews.channelCreate(textChannel)
    expect(wire(GuildSchemas.ChannelEvent, channelCreated)).toEqual(GuildViews.channel(textChannel))
    expect(GuildViews.channelDelete(voiceChannel)).toEqual(GuildViews.channel(voiceChannel))

    const inviteCreated: Loose<GatewayInviteCreateDispatchData> = GuildViews.inviteCreate(invite, owner)
    expect(wire(GuildSchemas.InviteCreateEvent, inviteCreated)).toEqual({
      type: 0,
      channel_id: TEXT,
      guild_id: GUILD,
      code: "AbCd1234",
      created_at: "2024-03-01T12:00:00.000Z",
      expires_at: "2024-03-02T12:00:00.000Z",
      inviter: owner,
      max_age: 86_400,
      max_uses: 0,
      temporary: false,
      uses: 0
    })
    expect("inviter" in GuildViews.inviteCreate({ ...invite, maxAge: 0 }, null)).toBe(false)
    const inviteDeleted: Loose<GatewayInviteDeleteDispatchData> = GuildViews.inviteDelete(invite)
    expect(wire(GuildSchemas.InviteDeleteEvent, inviteDeleted)).toEqual({
      channel_id: TEXT,
      guild_id: GUILD,
      code: "AbCd1234"
    })
  })
})
