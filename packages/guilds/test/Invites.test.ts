/**
 * Invitations on memory stores and the test clock: they expire after their age and their uses,
 * joining asks the account's standing (verification level, restriction) and the guild's bans, and
 * a member accepting again does not join twice.
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Effect, Ref } from "effect"
import { TestClock } from "effect/testing"
import { Invites } from "../src/Invites.ts"
import { Members } from "../src/Members.ts"
import * as World from "./support/GuildWorld.ts"

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("Invites", () => {
  it.effect("an invitation works until its age has passed", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner)
      const code = yield* World.inviteTo(owner, World.generalOf(created), { maxAge: 3600 })
      const invites = yield* Invites
      yield* TestClock.adjust("59 minutes")
      yield* invites.accept(yield* World.user(), code)
      yield* TestClock.adjust("1 minute")
      expect(yield* tagOf(invites.accept(yield* World.user(), code))).toBe("InviteNotFound")
      expect(yield* tagOf(invites.get(code))).toBe("InviteNotFound")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an invitation with no age never expires", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner)
      const code = yield* World.inviteTo(owner, World.generalOf(created), { maxAge: 0 })
      yield* TestClock.adjust("400 days")
      yield* (yield* Invites).accept(yield* World.user(), code)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an invitation is spent after its uses; a member accepting again uses nothing", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner)
      const code = yield* World.inviteTo(owner, World.generalOf(created), { maxUses: 2 })
      const invites = yield* Invites
      const first = yield* World.user()
      expect((yield* invites.accept(first, code)).joined).toBe(true)
      const again = yield* invites.accept(first, code)
      expect(again.joined).toBe(false)
      expect(again.shown.invite.uses).toBe(1)
      expect((yield* invites.accept(yield* World.user(), code)).joined).toBe(true)
      expect(yield* tagOf(invites.accept(yield* World.user(), code))).toBe("InviteNotFound")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a banned user cannot join, until unbanned", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const outcast = yield* World.user()
      const created = yield* World.guildWith(owner, [outcast])
      const members = yield* Members
      const invites = yield* Invites
      const code = yield* World.inviteTo(owner, World.generalOf(created))
      yield* members.ban(owner, created.guild.id, outcast.userId, "spam")
      expect(yield* tagOf(invites.accept(outcast, code))).toBe("BannedFromGuild")
      yield* members.unban(owner, created.guild.id, outcast.userId)
      expect((yield* invites.accept(outcast, code)).joined).toBe(true)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a restricted account neither joins nor invites", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const member = yield* World.user()
      const created = yield* World.guildWith(owner, [member])
      const invites = yield* Invites
      const code = yield* World.inviteTo(owner, World.generalOf(created))
      yield* invites.create(member, World.generalOf(created), { unique: true })

      const shadowed = yield* World.user({ restricted: true })
      expect(yield* tagOf(invites.accept(shadowed, code))).toBe("AccountRestricted")
      yield* Ref.update(
        yield* World.StandingsBook,
        (all) => new Map([...all, [member.userId, { ...World.GOOD, restricted: true }]])
      )
      expect(yield* tagOf(invites.create(member, World.generalOf(created), { unique: true }))).toBe("AccountRestricted")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("verification levels: low wants a verified contact, medium also an account five minutes old", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const invites = yield* Invites
      const low = yield* World.guildOf(owner, { verificationLevel: 1 })
      const medium = yield* World.guildOf(owner, { verificationLevel: 2 })
      const lowCode = yield* World.inviteTo(owner, World.generalOf(low))
      const mediumCode = yield* World.inviteTo(owner, World.generalOf(medium))

      const unverified = yield* World.user({ phoneVerified: false, emailVerified: false })
      expect(yield* tagOf(invites.accept(unverified, lowCode))).toBe("VerificationRequired")
      const byEmail = yield* World.user({ phoneVerified: false, emailVerified: true, createdAt: World.START })
      yield* invites.accept(byEmail, lowCode)
      expect(yield* tagOf(invites.accept(byEmail, mediumCode))).toBe("VerificationRequired")
      yield* TestClock.adjust("5 minutes")
      yield* invites.accept(byEmail, mediumCode)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a user without an account (no standing) cannot join, whatever the level", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner)
      const code = yield* World.inviteTo(owner, World.generalOf(created))
      const ghost = { userId: yield* (yield* Snowflake.SnowflakeGenerator).next, bot: false }
      expect(yield* tagOf((yield* Invites).accept(ghost, code))).toBe("VerificationRequired")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("without `unique` the same inviter's same invitation comes back", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const created = yield* World.guildOf(owner)
      const invites = yield* Invites
      const channelId = World.generalOf(created)
      const first = yield* invites.create(owner, channelId, { maxAge: 600 })
      const same = yield* invites.create(owner, channelId, { maxAge: 600 })
      const other = yield* invites.create(owner, channelId, { maxAge: 600, unique: true })
      expect(same.invite.code).toBe(first.invite.code)
      expect(other.invite.code).not.toBe(first.invite.code)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("creating an invitation needs Create Invite in the channel; deleting one, Manage Channels", () =>
    Effect.gen(function* () {
      const owner = yield* World.user()
      const member = yield* World.user()
      const stranger = yield* World.user()
      const created = yield* World.guildWith(owner, [member])
      const invites = yield* Invites
      const channelId = World.generalOf(created)
      // @everyone may invite by default; a non-member may not even see the channel
      const byMember = yield* invites.create(member, channelId, { unique: true })
      expect(yield* tagOf(invites.create(stranger, channelId, {}))).toBe("NoAccess")
      expect(yield* tagOf(invites.remove(member, byMember.invite.code))).toBe("MissingPermission")
      yield* invites.remove(owner, byMember.invite.code)
      expect(yield* tagOf(invites.get(byMember.invite.code))).toBe("InviteNotFound")
    }).pipe(Effect.provide(World.layer))
  )
})
