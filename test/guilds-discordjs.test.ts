/**
 * Guilds through @discordjs/rest as a bot library's user would call them, with only the base URL
 * (and the test host's fetch hook) changed: create a guild, read its channels, invite to the default
 * text channel and read the invite, list and create roles, create a channel; errors come back as the
 * library's `DiscordAPIError` with the platform's codes.
 */
import { DiscordAPIError, REST } from "@discordjs/rest"
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import {
  ChannelType,
  type RESTGetAPICurrentUserGuildsResult,
  type RESTGetAPIGuildBanResult,
  type RESTGetAPIGuildChannelsResult,
  type RESTGetAPIGuildResult,
  type RESTGetAPIGuildRolesResult,
  type RESTGetAPIInviteResult,
  RESTJSONErrorCodes,
  type RESTPostAPIChannelInviteResult,
  type RESTPostAPIGuildChannelJSONBody,
  type RESTPostAPIGuildChannelResult,
  type RESTPostAPIGuildRoleJSONBody,
  type RESTPostAPIGuildRoleResult,
  type RESTPostAPIGuildsJSONBody,
  type RESTPostAPIGuildsResult,
  Routes
} from "discord-api-types/v10"
import { Effect } from "effect"
import { register } from "./support/Accounts.ts"

/** A permission set on the wire: the decimal string of an unsigned integer. */
const PERMISSIONS = /^\d{1,20}$/

describe("Guilds through @discordjs/rest", () => {
  layer(TestHost.layer())((it) => {
    /** A library client for `token`, pointed at the test host. */
    const restFor = (token: string) =>
      Effect.map(Effect.service(TestHost.TestHost), (host) =>
        new REST({
          version: "10",
          api: `${TestHost.BASE_URL}/api`,
          authPrefix: "Bearer",
          // undici's RequestInit type differs from the DOM one in details the test host ignores
          makeRequest: (url, init) => host.fetchPromise(url, init as unknown as RequestInit)
        }).setToken(token)
      )

    /** The error a request rejects with (undefined if it succeeds). */
    const failure = (request: () => Promise<unknown>) =>
      Effect.promise(() =>
        request().then(
          () => undefined,
          (error: unknown) => error
        )
      )

    it.effect("creates a guild, reads its channels, invites, reads the invite, makes a role and a channel", () =>
      Effect.gen(function* () {
        const owner = yield* register("+79050001001", "djs_owner")
        const rest = yield* restFor(owner.access_token)

        const body: RESTPostAPIGuildsJSONBody = { name: "Library Guild" }
        const guild = (yield* Effect.promise(() => rest.post(Routes.guilds(), { body }))) as RESTPostAPIGuildsResult
        expect(guild).toMatchObject({ name: "Library Guild", owner_id: owner.user_id, icon: null })
        expect(guild.id).toMatch(/^\d{17,19}$/)
        // @everyone has the guild's id and its permissions are a decimal string
        expect(guild.roles).toHaveLength(1)
        expect(guild.roles[0]).toMatchObject({ id: guild.id, name: "@everyone", position: 0, managed: false })
        expect(guild.roles[0]?.permissions).toMatch(PERMISSIONS)

        const read = (yield* Effect.promise(() => rest.get(Routes.guild(guild.id)))) as RESTGetAPIGuildResult
        expect(read).toMatchObject({ id: guild.id, name: "Library Guild", system_channel_id: guild.system_channel_id })

        // The starting channels: a text and a voice category, each with one channel.
        const channels = (yield* Effect.promise(() =>
          rest.get(Routes.guildChannels(guild.id))
        )) as RESTGetAPIGuildChannelsResult
        expect(channels).toHaveLength(4)
        for (const channel of channels) {
          expect(channel.guild_id).toBe(guild.id)
          for (const overwrite of channel.permission_overwrites ?? []) {
            expect(overwrite.allow).toMatch(PERMISSIONS)
            expect(overwrite.deny).toMatch(PERMISSIONS)
          }
        }
        const general = channels.find((channel) => channel.id === guild.system_channel_id)
        expect(general).toMatchObject({ type: ChannelType.GuildText, name: "general", nsfw: false, topic: null })
        const textCategory = channels.find((channel) => channel.id === general?.parent_id)
        expect(textCategory).toMatchObject({ type: ChannelType.GuildCategory, parent_id: null })
        expect(channels.filter((channel) => channel.type === ChannelType.GuildVoice)).toHaveLength(1)
        if (general === undefined) return

        const invite = (yield* Effect.promise(() =>
          rest.post(Routes.channelInvites(general.id), { body: { max_age: 3600, max_uses: 5 } })
        )) as RESTPostAPIChannelInviteResult
        expect(invite).toMatchObject({
          type: 0,
          guild: { id: guild.id, name: "Library Guild" },
          channel: { id: general.id, name: "general", type: ChannelType.GuildText },
          inviter: { id: owner.user_id, username: "djs_owner" },
          uses: 0,
          max_uses: 5,
          max_age: 3600,
          temporary: false
        })
        expect(invite.code).toMatch(/^[A-Za-z0-9]+$/)
        expect(Date.parse(invite.expires_at ?? "") - Date.parse(invite.created_at)).toBe(3_600_000)

        const seen = (yield* Effect.promise(() =>
          rest.get(Routes.invite(invite.code), { query: new URLSearchParams({ with_counts: "true" }) })
        )) as RESTGetAPIInviteResult
        expect(seen).toMatchObject({
          code: invite.code,
          guild: { id: guild.id },
          channel: { id: general.id },
          expires_at: invite.expires_at,
          approximate_member_count: 1
        })
        // the public view carries no metadata
        expect(seen).not.toHaveProperty("uses")

        const roles = (yield* Effect.promise(() => rest.get(Routes.guildRoles(guild.id)))) as RESTGetAPIGuildRolesResult
        expect(roles.map((role) => role.id)).toEqual([guild.id])

        const roleBody: RESTPostAPIGuildRoleJSONBody = {
          name: "Moderators",
          permissions: "8192", // Manage Messages, as libraries send it
          color: 0x3498db,
          hoist: true,
          mentionable: true
        }
        const role = (yield* Effect.promise(() =>
          rest.post(Routes.guildRoles(guild.id), { body: roleBody })
        )) as RESTPostAPIGuildRoleResult
        expect(role).toMatchObject({
          name: "Moderators",
          permissions: "8192",
          color: 0x3498db,
          hoist: true,
          mentionable: true,
          managed: false
        })
        expect(role.id).not.toBe(guild.id)
        const rolesAfter = (yield* Effect.promise(() =>
          rest.get(Routes.guildRoles(guild.id))
        )) as RESTGetAPIGuildRolesResult
        expect(rolesAfter.map((r) => r.id).sort()).toEqual([guild.id, role.id].sort())
        for (const r of rolesAfter) expect(typeof r.permissions).toBe("string")

        const channelBody: RESTPostAPIGuildChannelJSONBody = {
          name: "announcements",
          type: ChannelType.GuildText,
          topic: "News",
          parent_id: textCategory?.id ?? null
        }
        const channel = (yield* Effect.promise(() =>
          rest.post(Routes.guildChannels(guild.id), { body: channelBody })
        )) as RESTPostAPIGuildChannelResult
        expect(channel).toMatchObject({
          type: ChannelType.GuildText,
          name: "announcements",
          topic: "News",
          guild_id: guild.id,
          parent_id: textCategory?.id
        })
        const channelsAfter = (yield* Effect.promise(() =>
          rest.get(Routes.guildChannels(guild.id))
        )) as RESTGetAPIGuildChannelsResult
        expect(channelsAfter.map((c) => c.id)).toContain(channel.id)
        expect(channelsAfter).toHaveLength(5)
      })
    )

    it.effect(
      "joins by invite, lists the caller's guilds, bans with a reason and deletes, bodiless as the library sends",
      () =>
        Effect.gen(function* () {
          const owner = yield* register("+79050001004", "djs_banner")
          const guest = yield* register("+79050001005", "djs_guest")
          const rest = yield* restFor(owner.access_token)
          const guestRest = yield* restFor(guest.access_token)
          const guild = (yield* Effect.promise(() =>
            rest.post(Routes.guilds(), { body: { name: "Ban Hall" } })
          )) as RESTPostAPIGuildsResult
          const systemChannel = guild.system_channel_id ?? ""
          // no body at all: the defaults (a day, unlimited)
          const invite = (yield* Effect.promise(() =>
            rest.post(Routes.channelInvites(systemChannel))
          )) as RESTPostAPIChannelInviteResult
          expect(invite).toMatchObject({ max_age: 86_400, max_uses: 0, temporary: false })

          const joined = (yield* Effect.promise(() => guestRest.post(Routes.invite(invite.code)))) as {
            new_member: boolean
            guild: { id: string }
          }
          expect(joined).toMatchObject({ new_member: true, guild: { id: guild.id } })
          const mine = (yield* Effect.promise(() =>
            guestRest.get(Routes.userGuilds(), { query: new URLSearchParams({ with_counts: "true" }) })
          )) as RESTGetAPICurrentUserGuildsResult
          expect(mine).toHaveLength(1)
          expect(mine[0]).toMatchObject({ id: guild.id, owner: false, approximate_member_count: 2 })
          expect(mine[0]?.permissions).toMatch(PERMISSIONS)

          // a bare PUT with the reason in X-Audit-Log-Reason, percent-encoded by the library
          const reason = "trolling: 3 warnings, ça suffit"
          yield* Effect.promise(() => rest.put(Routes.guildBan(guild.id, guest.user_id), { reason }))
          const ban = (yield* Effect.promise(() =>
            rest.get(Routes.guildBan(guild.id, guest.user_id))
          )) as RESTGetAPIGuildBanResult
          expect(ban).toMatchObject({ reason, user: { id: guest.user_id } })
          const refused = yield* failure(() => guestRest.post(Routes.invite(invite.code)))
          expect(refused).toBeInstanceOf(DiscordAPIError)
          expect(refused).toMatchObject({ status: 403, code: RESTJSONErrorCodes.UserBannedFromThisGuild })

          yield* Effect.promise(() => rest.delete(Routes.guild(guild.id)))
          const gone = yield* failure(() => rest.get(Routes.guild(guild.id)))
          expect(gone).toMatchObject({ status: 404, code: RESTJSONErrorCodes.UnknownGuild })
        })
    )

    it.effect("answers 404 10004 for an unknown guild, 404 10003 for an unknown channel, 403 50001 outside", () =>
      Effect.gen(function* () {
        const stranger = yield* register("+79050001002", "djs_stranger")
        const owner = yield* register("+79050001003", "djs_other_owner")
        const rest = yield* restFor(stranger.access_token)
        const ownerRest = yield* restFor(owner.access_token)
        const theirs = (yield* Effect.promise(() =>
          ownerRest.post(Routes.guilds(), { body: { name: "Not Yours" } })
        )) as RESTPostAPIGuildsResult

        const unknownGuild = yield* failure(() => rest.get(Routes.guild("1311000000000000001")))
        expect(unknownGuild).toBeInstanceOf(DiscordAPIError)
        expect(unknownGuild).toMatchObject({
          status: 404,
          code: RESTJSONErrorCodes.UnknownGuild,
          method: "GET",
          message: "Unknown Guild"
        })
        expect(RESTJSONErrorCodes.UnknownGuild).toBe(10004)

        const unknownChannel = yield* failure(() => rest.get(Routes.channel("1311000000000000002")))
        expect(unknownChannel).toBeInstanceOf(DiscordAPIError)
        expect(unknownChannel).toMatchObject({ status: 404, code: RESTJSONErrorCodes.UnknownChannel })
        expect(RESTJSONErrorCodes.UnknownChannel).toBe(10003)

        const outside = yield* failure(() => rest.get(Routes.guild(theirs.id)))
        expect(outside).toBeInstanceOf(DiscordAPIError)
        expect(outside).toMatchObject({
          status: 403,
          code: RESTJSONErrorCodes.MissingAccess,
          message: "Missing Access"
        })
        expect(RESTJSONErrorCodes.MissingAccess).toBe(50001)

        // the same for the guild's channel list
        const outsideChannels = yield* failure(() => rest.get(Routes.guildChannels(theirs.id)))
        expect(outsideChannels).toMatchObject({ status: 403, code: RESTJSONErrorCodes.MissingAccess })

        // and the owner still reads it (the stranger's errors cost the owner nothing)
        const mine = (yield* Effect.promise(() => ownerRest.get(Routes.guild(theirs.id)))) as RESTGetAPIGuildResult
        expect(mine.id).toBe(theirs.id)
      })
    )
  })
})
