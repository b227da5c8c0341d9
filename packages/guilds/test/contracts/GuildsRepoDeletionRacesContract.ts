/**
 * The GuildsRepo contract's a guild or channel deleted between the domain's checks and the step that
 * adds to it: NoSuchGuild / NoSuchChannel, never a defect.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_GUILDS_PER_USER } from "../../src/Guild.ts"
import {
  arrange,
  type GuildsRepoIt,
  newBan,
  newChannel,
  newInvite,
  newMember,
  newRole,
  now,
  race,
  user
} from "./GuildsRepoFixtures.ts"

export const deletionRacesContract = (it: GuildsRepoIt) => {
  it.effect("adding a role, channel, member, ban or invite to a deleted guild fails NoSuchGuild, not a defect", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId } = yield* arrange()
      const joiner = yield* user()
      const role = yield* newRole(guildId)
      const channel = yield* newChannel(guildId)
      expect(yield* repo.remove(guildId)).toBe(true)
      const outcomes = yield* Effect.all([
        Effect.flip(repo.createRole(role)),
        Effect.flip(repo.createChannel(channel)),
        Effect.flip(repo.join(newMember(guildId, joiner), MAX_GUILDS_PER_USER)),
        Effect.flip(repo.ban(newBan(guildId, joiner, owner))),
        Effect.flip(repo.createInvite(newInvite(guildId, textId), now))
      ])
      expect(outcomes.map((error) => error._tag)).toEqual(Array.from({ length: 5 }, () => "NoSuchGuild"))
      expect(yield* repo.roles(guildId)).toEqual([])
      expect(yield* repo.channels(guildId)).toEqual([])
    })
  )

  it.effect("an invite to a deleted channel fails NoSuchChannel (PostgreSQL: not its foreign-key violation)", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const doomed = yield* newChannel(guildId, { name: "doomed" })
      yield* repo.createChannel(doomed)
      yield* repo.deleteChannel(doomed.id)
      const invite = newInvite(guildId, doomed.id)
      expect((yield* Effect.flip(repo.createInvite(invite, now)))._tag).toBe("NoSuchChannel")
      expect(yield* repo.invitesOf(guildId, now)).toEqual([])
    })
  )

  it.effect("roles, invites and joins racing the guild's deletion end in success or NoSuchGuild, never a defect", () =>
    Effect.gen(function* () {
      for (let trial = 0; trial < 5; trial++) {
        const { repo, guildId, textId } = yield* arrange()
        const joiners = yield* Effect.all(Array.from({ length: 3 }, () => user()))
        const roles = yield* Effect.all(Array.from({ length: 3 }, () => newRole(guildId)))
        const attempts: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
          ...roles.map((role) => repo.createRole(role)),
          ...joiners.map((joiner) => repo.join(newMember(guildId, joiner), MAX_GUILDS_PER_USER)),
          ...Array.from({ length: 3 }, () => repo.createInvite(newInvite(guildId, textId), now)),
          repo.remove(guildId)
        ]
        const { failed } = yield* race(attempts)
        for (const tag of failed) expect(["NoSuchGuild", "NoSuchChannel"]).toContain(tag)
        expect(Option.isNone(yield* repo.find(guildId))).toBe(true)
      }
    })
  )
}
