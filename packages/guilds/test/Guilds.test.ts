/**
 * The guild service's rules on memory stores: what a new guild is made of, the cap per user, who
 * may read, change and delete a guild, and leaving (the owner cannot).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_GUILDS_PER_USER } from "../src/Guild.ts"
import { Guilds } from "../src/Guilds.ts"
import { GuildsRepo } from "../src/GuildsRepo.ts"
import * as Permissions from "../src/Permissions.ts"
import * as World from "./support/GuildWorld.ts"

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("Guilds", () => {
  it.effect("a new guild: its owner as member, @everyone with the default permissions, two categories", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner, { name: "Hall" })
      expect(created.guild).toMatchObject({ name: "Hall", ownerId: owner.userId, verificationLevel: 0 })
      expect(created.owner.userId).toBe(owner.userId)
      expect(created.roles).toHaveLength(1)
      expect(created.roles[0]).toMatchObject({ id: created.guild.id, permissions: Permissions.DEFAULT_EVERYONE })
      const types = created.channels.map((channel) => channel.type).sort()
      expect(types).toEqual([0, 2, 4, 4])
      const general = created.channels.find((channel) => channel.id === created.guild.systemChannelId)
      expect(general?.type).toBe(0)
      expect(general?.parentId).not.toBeNull()
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a user owns or joins at most the cap of guilds", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      for (let i = 0; i < MAX_GUILDS_PER_USER; i++) yield* World.guildOf(owner, { name: `g${i}` })
      expect(yield* tagOf(World.guildOf(owner))).toBe("GuildLimitReached")
      // the refused guild stored nothing: the icon callback was not even asked
      let asked = false
      const guilds = yield* Guilds
      yield* Effect.flip(
        guilds.create(owner, { name: "late" }, () =>
          Effect.sync(() => {
            asked = true
            return null
          })
        )
      )
      expect(asked).toBe(false)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("only members read a guild; an unknown guild is NoSuchGuild", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const member = yield* World.user()
      const stranger = yield* World.user()
      const created = yield* World.guildWith(owner, [member])
      const guilds = yield* Guilds
      expect((yield* guilds.read(member, created.guild.id)).guild.id).toBe(created.guild.id)
      expect(yield* tagOf(guilds.read(stranger, created.guild.id))).toBe("NoAccess")
      expect(yield* tagOf(guilds.read(owner, stranger.userId))).toBe("NoSuchGuild")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("changing a guild needs Manage Guild; deleting it needs the owner", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const member = yield* World.user()
      const created = yield* World.guildWith(owner, [member])
      const guilds = yield* Guilds
      expect(yield* tagOf(guilds.update(member, created.guild.id, { name: "Mine" }, {}))).toBe("MissingPermission")
      const updated = yield* guilds.update(owner, created.guild.id, { name: "Renamed" }, {})
      expect(updated.guild.name).toBe("Renamed")
      expect(updated.before.name).toBe("Test Guild")

      expect(yield* tagOf(guilds.remove(member, created.guild.id))).toBe("MissingPermission")
      expect(Option.isSome(yield* guilds.remove(owner, created.guild.id))).toBe(true)
      expect(Option.isNone(yield* (yield* GuildsRepo).find(created.guild.id))).toBe(true)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("members leave; the owner cannot, and leaving twice is NoSuchGuild", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const member = yield* World.user()
      const created = yield* World.guildWith(owner, [member])
      const guilds = yield* Guilds
      expect(yield* tagOf(guilds.leave(owner, created.guild.id))).toBe("OwnerCannotLeave")
      yield* guilds.leave(member, created.guild.id)
      expect(yield* tagOf(guilds.read(member, created.guild.id))).toBe("NoAccess")
      expect(yield* tagOf(guilds.leave(member, created.guild.id))).toBe("NoSuchGuild")
      const counts = yield* guilds.memberCounts([created.guild.id])
      expect(counts.get(created.guild.id)).toBe(1)
    }).pipe(Effect.provide(World.layer))
  )
})
