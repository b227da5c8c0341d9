/**
 * The one behaviour suite every GuildsRepo adapter must pass: on memory in every run, on PostgreSQL
 * when DATABASE_URL is set (guilds refer to users, so users are made first).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { insertUser } from "../../../users/test/support/TestUsers.ts"
import { MAX_GUILDS_PER_USER, type NewGuild } from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import * as Permissions from "../../src/Permissions.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(20))
const now = DateTime.makeUnsafe(Math.floor(Date.now()))

const newGuild = Effect.fnUntraced(function* (ownerId: Snowflake.Snowflake, name = "Guild") {
  const guildId = yield* ids.next
  const text = yield* ids.next
  const created: NewGuild = {
    guild: {
      id: guildId,
      name,
      icon: null,
      banner: null,
      description: null,
      ownerId,
      verificationLevel: 0,
      systemChannelId: text,
      createdAt: now
    },
    everyone: {
      id: guildId,
      guildId,
      name: "@everyone",
      permissions: Permissions.DEFAULT_EVERYONE,
      position: 0,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false
    },
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
        overwrites: [{ id: guildId, type: 0, allow: 0n, deny: Permissions.Flags.MentionEveryone }]
      }
    ],
    owner: { guildId, userId: ownerId, nick: null, roleIds: [], joinedAt: now }
  }
  return created
})

export const guildsRepoContract = (it: Vitest.MethodsNonLive<GuildsRepo | UsersRepo.UsersRepo>) => {
  it.effect("creates a guild with its @everyone role, channels and owner, and reads them back", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* insertUser(ids, "guild_owner")
      const created = yield* newGuild(owner, "Вече")
      yield* repo.create(created)
      const guild = Option.getOrThrow(yield* repo.find(created.guild.id))
      expect({ ...guild, createdAt: DateTime.toEpochMillis(guild.createdAt) }).toEqual({
        ...created.guild,
        createdAt: DateTime.toEpochMillis(created.guild.createdAt)
      })
      expect(yield* repo.roles(created.guild.id)).toEqual([created.everyone])
      expect(yield* repo.channels(created.guild.id)).toEqual(created.channels)
      const member = Option.getOrThrow(yield* repo.member(created.guild.id, owner))
      expect(member).toMatchObject({ userId: owner, nick: null, roleIds: [] })
      expect(yield* repo.memberCount(created.guild.id)).toBe(1)
      expect(yield* repo.guildsOf(owner)).toEqual([created.guild.id])
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(false)
      expect(Option.isNone(yield* repo.find(yield* ids.next))).toBe(true)
    })
  )

  it.effect("a user reaches at most 100 guilds, even with concurrent creations", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* insertUser(ids, "guild_many")
      for (let i = 0; i < MAX_GUILDS_PER_USER - 3; i++) yield* repo.create(yield* newGuild(owner, `g${i}`))
      const attempts = yield* Effect.all(Array.from({ length: 6 }, (_, i) => newGuild(owner, `race${i}`)))
      const results = yield* Effect.all(
        attempts.map((created) => Effect.result(repo.create(created))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result._tag === "Success")).toHaveLength(3)
      expect(yield* repo.guildsOf(owner)).toHaveLength(MAX_GUILDS_PER_USER)
    })
  )
}
