/**
 * The per-channel view cache against a change that lands while a session's join is still reading:
 * the read began before the change was stored, the change's dispatch is observed before the read
 * answers, and what the read found must not become the cache (a channel hidden by the change would
 * stay visible, and its messages would reach the member).
 */
import { describe, expect, it } from "@effect/vitest"
import { ChannelVisibility, Guild, Permissions } from "@veche/guilds"
import type { Dispatch, Snowflake } from "@veche/platform"
import { DateTime, Deferred, Effect, Fiber, Layer, Option } from "effect"
import { ChannelViews } from "../src/ChannelViews.ts"

const GUILD = "100" as Snowflake.Snowflake
const USER = "200" as Snowflake.Snowflake
const CHANNEL = "300" as Snowflake.Snowflake
const CREATED = DateTime.makeUnsafe("2026-03-01T12:00:00Z")

const guild: Guild.Guild = {
  id: GUILD,
  name: "g",
  icon: null,
  banner: null,
  description: null,
  ownerId: "1" as Snowflake.Snowflake,
  verificationLevel: 0,
  defaultMessageNotifications: 0,
  explicitContentFilter: 0,
  systemChannelId: null,
  rulesChannelId: null,
  publicUpdatesChannelId: null,
  afkChannelId: null,
  afkTimeout: 300,
  preferredLocale: "en-US",
  features: [],
  createdAt: CREATED
}

const READER = "400" as Snowflake.Snowflake

const channel = (hidden: boolean): Guild.Channel => ({
  id: CHANNEL,
  guildId: GUILD,
  type: 0,
  name: "general",
  position: 0,
  parentId: null,
  topic: null,
  nsfw: false,
  rateLimitPerUser: 0,
  bitrate: 0,
  userLimit: 0,
  overwrites: hidden
    ? [
        { id: GUILD, type: 0, allow: 0n, deny: Permissions.Flags.ViewChannel },
        { id: READER, type: 0, allow: Permissions.Flags.ViewChannel, deny: 0n }
      ]
    : []
})

const member = (roleIds: ReadonlyArray<Snowflake.Snowflake>): Guild.Member => ({
  guildId: GUILD,
  userId: USER,
  nick: null,
  roleIds,
  joinedAt: CREATED
})

const everyone: Guild.Role = Guild.everyoneRole(GUILD)

const reader: Guild.Role = { ...everyone, id: READER, name: "reader", permissions: 0n, position: 1 }

/**
 * A source whose first read of each kind waits for `release` and answers the state as it was when
 * the read began; later reads answer the state as it is.
 */
const gatedSource = Effect.fnUntraced(function* (gated: "rules" | "member") {
  const release = yield* Deferred.make<void>()
  const started = yield* Deferred.make<void>()
  // hidden: the channel denies @everyone; withRole: the member holds the role that may see it anyway
  const state = { hidden: false, withRole: false }
  let reads = 0
  const gate = <A>(kind: "rules" | "member", answer: Effect.Effect<A>): Effect.Effect<A> => {
    if (kind !== gated) return answer
    reads += 1
    return reads === 1
      ? Effect.andThen(Deferred.succeed(started, undefined), Effect.andThen(Deferred.await(release), answer))
      : answer
  }
  const source = ChannelVisibility.ChannelVisibility.of({
    rules: () => {
      const hidden = state.hidden
      return gate(
        "rules",
        Effect.succeed(Option.some({ guild, roles: [everyone, reader], channels: [channel(hidden)] }))
      )
    },
    member: () => {
      const withRole = state.withRole
      return gate("member", Effect.succeed(Option.some(member(withRole ? [READER] : []))))
    }
  })
  return { source, release, started, state, reads: () => reads }
})

const channelUpdate: Dispatch.Dispatch = {
  type: "CHANNEL_UPDATE",
  guildIds: [GUILD],
  userIds: [],
  data: { id: CHANNEL, guild_id: GUILD, permission_overwrites: [] }
} as unknown as Dispatch.Dispatch

const memberUpdate: Dispatch.Dispatch = {
  type: "GUILD_MEMBER_UPDATE",
  guildIds: [GUILD],
  userIds: [],
  data: { guild_id: GUILD, user: { id: USER }, roles: [] }
} as unknown as Dispatch.Dispatch

const viewsOver = (source: ChannelVisibility.ChannelVisibility["Service"]) =>
  Effect.service(ChannelViews).pipe(
    Effect.provide(ChannelViews.layer.pipe(Layer.provide(Layer.succeed(ChannelVisibility.ChannelVisibility, source))))
  )

describe("ChannelViews", () => {
  it.effect("a change observed while a join reads is not overwritten by what the read found before it", () =>
    Effect.gen(function* () {
      const gate = yield* gatedSource("rules")
      const views = yield* viewsOver(gate.source)
      // a session joins: its read of the rules begins (the channel is visible then)
      const joining = yield* Effect.forkChild(views.prepare(GUILD, [USER]))
      yield* Deferred.await(gate.started)
      // the channel is hidden and stored; its dispatch reaches this node before the read answers
      gate.state.hidden = true
      views.observe(channelUpdate)
      yield* Deferred.succeed(gate.release, undefined)
      yield* Fiber.join(joining)
      expect(views.sees(GUILD, USER, { channelId: CHANNEL, overwrites: undefined })).toBe(false)
      expect(gate.reads()).toBe(2)
    })
  )

  it.effect("a member's roles changed while a join reads them are read again", () =>
    Effect.gen(function* () {
      const gate = yield* gatedSource("member")
      gate.state.hidden = true
      gate.state.withRole = true
      const views = yield* viewsOver(gate.source)
      const joining = yield* Effect.forkChild(views.prepare(GUILD, [USER]))
      yield* Deferred.await(gate.started)
      // the member loses the role that let them see the channel
      gate.state.withRole = false
      views.observe(memberUpdate)
      yield* Deferred.succeed(gate.release, undefined)
      yield* Fiber.join(joining)
      expect(views.sees(GUILD, USER, { channelId: CHANNEL, overwrites: undefined })).toBe(false)
      expect(gate.reads()).toBe(2)
    })
  )

  it.effect("a read with no change while it ran is kept (one read)", () =>
    Effect.gen(function* () {
      const gate = yield* gatedSource("rules")
      const views = yield* viewsOver(gate.source)
      const joining = yield* Effect.forkChild(views.prepare(GUILD, [USER]))
      yield* Deferred.await(gate.started)
      yield* Deferred.succeed(gate.release, undefined)
      yield* Fiber.join(joining)
      expect(gate.reads()).toBe(1)
      expect(views.sees(GUILD, USER, { channelId: CHANNEL, overwrites: undefined })).toBe(true)
      // and a later prepare reads nothing more
      yield* views.prepare(GUILD, [USER])
      expect(gate.reads()).toBe(1)
    })
  )
})
