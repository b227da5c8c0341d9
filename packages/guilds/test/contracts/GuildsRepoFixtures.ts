/**
 * What every part of the GuildsRepo contract arranges with: ids (some whose text and numeric order
 * disagree), invite codes, fresh users, guilds, roles, channels, members, bans and invites, and
 * views that compare DateTimes by instant. Ids are unique per run, so the parts share one store.
 */
import type { Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import {
  type Ban,
  type Channel,
  everyoneRole,
  type Guild,
  type Invite,
  MAX_GUILDS_PER_USER,
  type Member,
  type NewGuild,
  type Role
} from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import * as Permissions from "../../src/Permissions.ts"

/** What a part of the contract runs its tests with. */
export type GuildsRepoIt = Vitest.MethodsNonLive<GuildsRepo | UsersRepo.UsersRepo>

export const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(20))
export const now = DateTime.makeUnsafe(Math.floor(Date.now()))
export const millis = DateTime.toEpochMillis
/** `now` moved by some seconds. */
export const at = (seconds: number) => DateTime.makeUnsafe(millis(now) + seconds * 1000)

// --- ids whose text order and numeric order disagree

let odd = 0
/**
 * Ids of 19 and 18 digits in turn (1000…, 900…), so sorting them as text gives a different order
 * than sorting them as numbers. The generator never mints these: its ids are of the current time
 * (≈ 1.4e18 and up) or, under a test clock at 0, small.
 */
export const oddId = (): Snowflake.Snowflake => {
  odd += 1
  const base = odd % 2 === 1 ? 1_000_000_000_000_000_000n : 900_000_000_000_000_000n
  return Snowflake.Snowflake.make(String(base + BigInt(odd)))
}
export const numeric = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)
export const ascending = (list: ReadonlyArray<Snowflake.Snowflake>) => [...list].sort(numeric)

// --- invite codes: 8 characters of [A-Za-z0-9], a random run prefix and a counter

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
const runTag = Array.from({ length: 3 }, () => ALPHABET.charAt(Math.floor(Math.random() * 62))).join("")
let codes = 0
export const nextCode = () => {
  let n = ++codes
  let digits = ""
  for (let i = 0; i < 5; i++) {
    digits = ALPHABET.charAt(n % 62) + digits
    n = Math.floor(n / 62)
  }
  return runTag + digits
}

// --- arrangements

export const user = (prefix = "guild_user") => insertUser(ids, prefix)
/** A user with a chosen id (an `oddId`). */
export const userWithId = (id: Snowflake.Snowflake) =>
  insertUser({ workerId: 20, next: Effect.succeed(id) }, "guild_odd")

export const newGuild = Effect.fnUntraced(function* (
  ownerId: Snowflake.Snowflake,
  options: { readonly name?: string; readonly id?: Snowflake.Snowflake } = {}
) {
  const guildId = options.id ?? (yield* ids.next)
  const text = yield* ids.next
  const created: NewGuild & { readonly textId: Snowflake.Snowflake } = {
    textId: text,
    guild: {
      id: guildId,
      name: options.name ?? "Guild",
      icon: null,
      banner: null,
      description: null,
      ownerId,
      verificationLevel: 0,
      defaultMessageNotifications: 0,
      explicitContentFilter: 0,
      systemChannelId: text,
      rulesChannelId: null,
      publicUpdatesChannelId: null,
      afkChannelId: null,
      afkTimeout: 300,
      preferredLocale: "en-US",
      features: [],
      createdAt: now
    },
    everyone: everyoneRole(guildId),
    channels: [
      {
        id: text,
        guildId,
        type: 0,
        name: "general",
        position: 0,
        parentId: null,
        topic: null,
        nsfw: false,
        rateLimitPerUser: 0,
        bitrate: 0,
        userLimit: 0,
        overwrites: [{ id: guildId, type: 0, allow: 0n, deny: Permissions.Flags.MentionEveryone }]
      }
    ],
    owner: { guildId, userId: ownerId, nick: null, roleIds: [], joinedAt: now }
  }
  return created
})

/** A fresh owner with a fresh guild. */
export const arrange = Effect.fnUntraced(function* (name = "Guild") {
  const repo = yield* GuildsRepo
  const owner = yield* user("guild_owner")
  const created = yield* newGuild(owner, { name })
  yield* repo.create(created, MAX_GUILDS_PER_USER)
  return { repo, owner, created, guildId: created.guild.id, textId: created.textId }
})

export const newRole = (guildId: Snowflake.Snowflake, fields: Partial<Role> = {}) =>
  Effect.map(
    ids.next,
    (id): Role => ({
      id,
      guildId,
      name: "role",
      permissions: Permissions.Flags.KickMembers,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botId: null,
      ...fields
    })
  )

export const newChannel = (guildId: Snowflake.Snowflake, fields: Partial<Channel> = {}) =>
  Effect.map(
    ids.next,
    (id): Channel => ({
      id,
      guildId,
      type: 0,
      name: "chat",
      position: 1,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: 0,
      userLimit: 0,
      overwrites: [],
      ...fields
    })
  )

export const newMember = (
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  fields: Partial<Member> = {}
): Member => ({
  guildId,
  userId,
  nick: null,
  roleIds: [],
  joinedAt: now,
  ...fields
})

export const newBan = (
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  bannedBy: Snowflake.Snowflake,
  fields: Partial<Ban> = {}
): Ban => ({ guildId, userId, reason: null, bannedBy, createdAt: now, ...fields })

export const newInvite = (
  guildId: Snowflake.Snowflake,
  channelId: Snowflake.Snowflake,
  fields: Partial<Invite> = {}
): Invite => ({
  code: nextCode(),
  guildId,
  channelId,
  inviterId: null,
  maxAge: 0,
  maxUses: 0,
  uses: 0,
  temporary: false,
  createdAt: now,
  ...fields
})

/** `n` arrangement steps, a few at a time (a database pool is small). */
export const bulk = <A, E, R>(n: number, f: (i: number) => Effect.Effect<A, E, R>) =>
  Effect.all(
    Array.from({ length: n }, (_, i) => f(i)),
    { concurrency: 8 }
  )

/** Runs the attempts all at once; answers how many succeeded and the tags of the failures. */
export const race = <A, E extends { readonly _tag: string }, R>(attempts: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.map(
    Effect.all(
      attempts.map((attempt) => Effect.result(attempt)),
      { concurrency: "unbounded" }
    ),
    (results) => ({
      succeeded: results.filter((result) => result._tag === "Success").length,
      failed: results.flatMap((result) => (result._tag === "Failure" ? [result.failure._tag] : []))
    })
  )

/** A fresh user who owns `n` guilds (so is a member of `n`). */
export const userInGuilds = Effect.fnUntraced(function* (n: number) {
  const repo = yield* GuildsRepo
  const userId = yield* user("guild_many")
  // each creation under a cap of `n`: none of them is refused, whichever order they land in
  yield* bulk(n, (i) => Effect.flatMap(newGuild(userId, { name: `own${i}` }), (created) => repo.create(created, n)))
  return userId
})

// DateTimes compare by instant: adapters may build equal instants differently.
export const guildView = (guild: Guild) => ({ ...guild, createdAt: millis(guild.createdAt) })
export const memberView = (member: Member) => ({ ...member, joinedAt: millis(member.joinedAt) })
export const banView = (ban: Ban) => ({ ...ban, createdAt: millis(ban.createdAt) })
export const inviteView = (invite: Invite) => ({ ...invite, createdAt: millis(invite.createdAt) })
export const some = <A, B>(option: Option.Option<A>, view: (a: A) => B) => view(Option.getOrThrow(option))
