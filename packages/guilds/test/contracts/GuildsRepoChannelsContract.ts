/**
 * The GuildsRepo contract's channels: order, update, deletion with its invites and the guild fields
 * and children that point at it, the cap.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_CHANNELS, MAX_GUILDS_PER_USER } from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import * as Permissions from "../../src/Permissions.ts"
import {
  arrange,
  ascending,
  at,
  bulk,
  type GuildsRepoIt,
  guildView,
  ids,
  inviteView,
  memberView,
  newChannel,
  newGuild,
  newInvite,
  newMember,
  newRole,
  numeric,
  oddId,
  some,
  user,
  userWithId
} from "./GuildsRepoFixtures.ts"

export const channelsContract = (it: GuildsRepoIt) => {
  it.effect("channels come by position then id (as numbers); channel finds one by id", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const category = yield* newChannel(guildId, { id: oddId(), type: 4, name: "cat", position: 1 })
      const channels = [
        category,
        yield* newChannel(guildId, { id: oddId(), position: 0, parentId: category.id, topic: "t", nsfw: true }),
        yield* newChannel(guildId, {
          id: oddId(),
          type: 2,
          position: 1,
          name: "voice",
          bitrate: 64000,
          userLimit: 10
        }),
        yield* newChannel(guildId, { id: oddId(), position: 1, rateLimitPerUser: 30 })
      ]
      for (const channel of channels) yield* repo.createChannel(channel)
      const expected = [...created.channels, ...channels].sort((a, b) => a.position - b.position || numeric(a.id, b.id))
      expect(yield* repo.channels(guildId)).toEqual(expected)
      expect(yield* repo.channel(category.id)).toEqual(Option.some(category))
      expect(Option.isNone(yield* repo.channel(yield* ids.next))).toBe(true)
    })
  )

  it.effect("channelPlace answers what channel, then find, member and roles answer, in one read", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* user("place_owner")
      const created = yield* newGuild(owner, { id: oddId(), name: 'Место "quoted" \\ guild' })
      yield* repo.create(created, MAX_GUILDS_PER_USER)
      const guildId = created.guild.id
      // ids past 2^53 whose text order and numeric order disagree: a JSON number or a text sort shows
      const high = yield* newRole(guildId, {
        id: oddId(),
        name: "бот's role",
        permissions: (1n << 62n) | 8n,
        position: 1
      })
      const low = yield* newRole(guildId, { id: oddId(), name: "low", position: 1, color: 0xffaa00, hoist: true })
      yield* repo.createRole(high)
      yield* repo.createRole(low)
      const channel = yield* newChannel(guildId, {
        id: oddId(),
        name: "hidden",
        topic: 'a "topic" with\nlines',
        nsfw: true,
        rateLimitPerUser: 30,
        overwrites: [
          { id: guildId, type: 0, allow: 0n, deny: 1n << 10n },
          { id: high.id, type: 0, allow: (1n << 40n) | 1024n, deny: 0n }
        ]
      })
      yield* repo.createChannel(channel)
      const member = yield* userWithId(oddId())
      yield* repo.join(
        newMember(guildId, member, { nick: "ник", roleIds: [high.id, low.id], joinedAt: at(2) }),
        MAX_GUILDS_PER_USER
      )
      const stranger = yield* user("place_stranger")
      for (const userId of [owner, member, stranger]) {
        const place = Option.getOrThrow(yield* repo.channelPlace(channel.id, userId))
        expect(place.channel).toEqual(some(yield* repo.channel(channel.id), (found) => found))
        expect(guildView(place.guild)).toEqual(some(yield* repo.find(guildId), guildView))
        expect(place.roles).toEqual(yield* repo.roles(guildId))
        expect(Option.map(place.member, memberView)).toEqual(
          Option.map(yield* repo.member(guildId, userId), memberView)
        )
      }
      const place = Option.getOrThrow(yield* repo.channelPlace(channel.id, member))
      expect(place.channel).toEqual(channel)
      expect(place.roles.map((role) => role.id)).toEqual([guildId, ...ascending([high.id, low.id])])
      expect(Option.map(place.member, memberView)).toEqual(
        Option.some(
          memberView(newMember(guildId, member, { nick: "ник", roleIds: [high.id, low.id], joinedAt: at(2) }))
        )
      )
      // not a member: the channel and its guild, no membership
      expect(Option.isNone(Option.getOrThrow(yield* repo.channelPlace(channel.id, stranger)).member)).toBe(true)
      // no such channel, or its guild gone (the channel goes with it): nothing
      expect(Option.isNone(yield* repo.channelPlace(yield* ids.next, owner))).toBe(true)
      expect(yield* repo.remove(guildId)).toBe(true)
      expect(Option.isNone(yield* repo.channelPlace(channel.id, owner))).toBe(true)
    })
  )

  it.effect("updateChannel changes a channel; None when absent", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const category = yield* newChannel(guildId, { type: 4 })
      const channel = yield* newChannel(guildId)
      yield* repo.createChannel(category)
      yield* repo.createChannel(channel)
      const patch = {
        name: "renamed",
        position: 7,
        parentId: category.id,
        topic: "a topic",
        nsfw: true,
        rateLimitPerUser: 10,
        overwrites: [{ id: guildId, type: 0 as const, allow: 0n, deny: Permissions.Flags.ViewChannel }]
      }
      expect(yield* repo.updateChannel(channel.id, patch)).toEqual(Option.some({ ...channel, ...patch }))
      expect(yield* repo.channel(channel.id)).toEqual(Option.some({ ...channel, ...patch }))
      expect(Option.isNone(yield* repo.updateChannel(yield* ids.next, { name: "none" }))).toBe(true)
    })
  )

  it.effect("deleteChannel deletes its invites and clears the guild's fields that point at it", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const doomed = yield* newChannel(guildId, { name: "doomed" })
      const voice = yield* newChannel(guildId, { type: 2, name: "afk" })
      yield* repo.createChannel(doomed)
      yield* repo.createChannel(voice)
      yield* repo.update(guildId, {
        systemChannelId: doomed.id,
        rulesChannelId: doomed.id,
        publicUpdatesChannelId: doomed.id,
        afkChannelId: voice.id
      })
      const gone = [newInvite(guildId, doomed.id), newInvite(guildId, doomed.id, { maxUses: 5 })]
      const kept = newInvite(guildId, textId, { createdAt: at(1) })
      for (const invite of [...gone, kept]) yield* repo.createInvite(invite, at(1))

      expect(yield* repo.deleteChannel(doomed.id)).toEqual(Option.some(doomed))
      expect(Option.isNone(yield* repo.channel(doomed.id))).toBe(true)
      expect((yield* repo.channels(guildId)).map((channel) => channel.id)).toEqual([textId, voice.id])
      for (const invite of gone) expect(Option.isNone(yield* repo.invite(invite.code, at(1)))).toBe(true)
      expect((yield* repo.invitesOf(guildId, at(1))).map(inviteView)).toEqual([inviteView(kept)])
      const guild = Option.getOrThrow(yield* repo.find(guildId))
      expect(guild).toMatchObject({
        systemChannelId: null,
        rulesChannelId: null,
        publicUpdatesChannelId: null,
        afkChannelId: voice.id
      })
      expect(Option.isNone(yield* repo.deleteChannel(doomed.id))).toBe(true)
    })
  )

  it.effect("deleting a category leaves its channels in the guild without a parent", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const category = yield* newChannel(guildId, { type: 4, name: "cat", position: 0 })
      const otherCategory = yield* newChannel(guildId, { type: 4, name: "other", position: 1 })
      yield* repo.createChannel(category)
      yield* repo.createChannel(otherCategory)
      const text = yield* newChannel(guildId, { parentId: category.id, position: 2 })
      const voice = yield* newChannel(guildId, { type: 2, parentId: category.id, position: 3 })
      const elsewhere = yield* newChannel(guildId, { parentId: otherCategory.id, position: 4 })
      for (const channel of [text, voice, elsewhere]) yield* repo.createChannel(channel)

      expect(yield* repo.deleteChannel(category.id)).toEqual(Option.some(category))
      expect(yield* repo.channel(text.id)).toEqual(Option.some({ ...text, parentId: null }))
      expect(yield* repo.channel(voice.id)).toEqual(Option.some({ ...voice, parentId: null }))
      expect(yield* repo.channel(elsewhere.id)).toEqual(Option.some(elsewhere))
      expect((yield* repo.channels(guildId)).map((channel) => channel.id).sort(numeric)).toEqual(
        ascending([textId, otherCategory.id, text.id, voice.id, elsewhere.id])
      )
      // The guild's own fields are untouched (its system channel is another one).
      expect(Option.getOrThrow(yield* repo.find(guildId)).systemChannelId).toBe(textId)
    })
  )

  it.effect("a guild holds at most 500 channels", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_CHANNELS - 1, (i) => Effect.flatMap(newChannel(guildId, { name: `c${i}` }), repo.createChannel))
      expect(yield* repo.channels(guildId)).toHaveLength(MAX_CHANNELS)
      const extra = yield* newChannel(guildId)
      expect((yield* Effect.flip(repo.createChannel(extra)))._tag).toBe("ChannelLimitReached")
      expect(Option.isNone(yield* repo.channel(extra.id))).toBe(true)
      expect(yield* repo.channels(guildId)).toHaveLength(MAX_CHANNELS)
    })
  )
}
