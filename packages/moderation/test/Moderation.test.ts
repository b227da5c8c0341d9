/**
 * Staff moderation on memory layers and the test clock: who may act, on whom, with which term; a
 * block and a restriction are one sanction of two kinds, kept apart; what the ports the lower
 * domains ask (auth's AccountBlocks, guilds' AccountStandings) answer; and the staff log lines.
 * The wire (status codes, bodies) is pinned by test/blocks.test.ts and test/restrictions.test.ts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AccountBlocks, AccountLookup, AccountsRepo, Phone } from "@veche/auth"
import { AccountStandings } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { capture } from "@veche/platform/test/support/CapturedLogs"
import { ProfilesRepo, UserRecords, UsersDomain, UsersRepo } from "@veche/users"
import { DateTime, Effect, Exit, Layer, Option } from "effect"
import { TestClock } from "effect/testing"
import type * as ModerationModule from "../src/Moderation.ts"
import { Moderation } from "../src/Moderation.ts"
import * as ModerationDomain from "../src/ModerationDomain.ts"
import { SanctionsRepo } from "../src/SanctionsRepo.ts"
import { StaffConfig } from "../src/Staff.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(16))
const STAFF = Snowflake.Snowflake.make("1311000000000000091")
const STAFF_PHONE = "+79160000091"

const domain = ModerationDomain.layer.pipe(
  Layer.provide(StaffConfig.layer({ userIds: [STAFF], phones: ["8 (916) 000-00-92"] })),
  Layer.provideMerge(ModerationDomain.layerMemoryRepositories),
  Layer.provideMerge(Snowflake.SnowflakeGenerator.layer(17)),
  Layer.provideMerge(Layer.merge(UsersDomain.layerDirectory, AccountLookup.AccountLookup.layer)),
  Layer.provideMerge(AccountsRepo.AccountsRepo.layerMemory),
  Layer.provideMerge(UserRecords.UserRecords.layer),
  Layer.provideMerge(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
)

/** An account (user and credentials) created now, with this phone or a fresh one. */
const newAccount = Effect.fnUntraced(function* (phone?: string) {
  const id = yield* ids.next
  const createdAt = yield* DateTime.now
  yield* (yield* AccountsRepo.AccountsRepo).register({
    user: { id, username: `moderated_${id}`, displayName: null, createdAt },
    credentials: {
      userId: id,
      phone: Option.getOrNull(Phone.normalise(phone ?? `+7916${id.slice(-7)}`)),
      email: null,
      emailVerified: false,
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaA",
      dateOfBirth: "2000-02-29",
      createdAt,
      passwordChangedAt: null
    }
  })
  return id
})

/** The staff member listed by id, as an account. */
const staffAccount = Effect.gen(function* () {
  const users = yield* UsersRepo.UsersRepo
  if (Option.isNone(yield* users.findById(STAFF))) {
    yield* users.insert({ id: STAFF, username: "moderation_staff", displayName: null, createdAt: yield* DateTime.now })
  }
  return STAFF
})

const daysFromNow = (days: number) => Effect.map(DateTime.now, (now) => DateTime.add(now, { days }))

describe("Moderation", () => {
  layer(domain)((it) => {
    it.effect("only staff act, and only on an existing account; nobody sanctions themselves", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const staff = yield* staffAccount
        const target = yield* newAccount()
        const other = yield* newAccount()
        const unknown = yield* ids.next
        const term = { reason: "spam", until: null }
        const acts: ReadonlyArray<
          (request: ModerationModule.SanctionRequest) => Effect.Effect<void, { readonly _tag: string }>
        > = [
          (request: ModerationModule.SanctionRequest) => Effect.asVoid(moderation.block(request)),
          (request: ModerationModule.SanctionRequest) => Effect.asVoid(moderation.restrict(request))
        ]
        for (const act of acts) {
          const refusal = (staffId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
            Effect.map(Effect.flip(act({ staffId, userId, ...term })), (error) => error._tag)
          expect(yield* refusal(other, target)).toBe("NotStaff")
          expect(yield* refusal(staff, unknown)).toBe("NoSuchUser")
        }
        for (const lift of [moderation.unblock, moderation.unrestrict]) {
          expect((yield* Effect.flip(lift({ staffId: other, userId: target })))._tag).toBe("NotStaff")
          expect((yield* Effect.flip(lift({ staffId: staff, userId: unknown })))._tag).toBe("NoSuchUser")
        }
        expect((yield* Effect.flip(moderation.block({ staffId: staff, userId: staff, ...term })))._tag).toBe(
          "CannotBlockSelf"
        )
        expect((yield* Effect.flip(moderation.restrict({ staffId: staff, userId: staff, ...term })))._tag).toBe(
          "CannotRestrictSelf"
        )
        const sanctions = yield* SanctionsRepo
        expect(Option.isNone(yield* sanctions.find(target, "block"))).toBe(true)
        expect(Option.isNone(yield* sanctions.find(target, "restriction"))).toBe(true)
      })
    )

    it.effect("staff listed by phone act too (any spelling of the number)", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const byPhone = yield* newAccount("+79160000092")
        const target = yield* newAccount()
        const block = yield* moderation.block({ staffId: byPhone, userId: target, reason: "spam", until: null })
        expect(block.blockedBy).toBe(byPhone)
        const notStaff = yield* newAccount(STAFF_PHONE)
        const refused = yield* Effect.flip(
          moderation.restrict({ staffId: notStaff, userId: target, reason: "x", until: null })
        )
        expect(refused._tag).toBe("NotStaff")
      })
    )

    it.effect("a term must end in the future: now or earlier is refused for each kind", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const staff = yield* staffAccount
        const target = yield* newAccount()
        for (const until of [yield* DateTime.now, yield* daysFromNow(-1)]) {
          const request = { staffId: staff, userId: target, reason: "spam", until }
          expect((yield* Effect.flip(moderation.block(request)))._tag).toBe("BlockEndInPast")
          expect((yield* Effect.flip(moderation.restrict(request)))._tag).toBe("RestrictionEndInPast")
        }
      })
    )

    it.effect("a block is what auth's AccountBlocks reads; a restriction is not a block, and each lifts alone", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const blocks = yield* AccountBlocks.AccountBlocks
        const staff = yield* staffAccount
        const target = yield* newAccount()
        const until = yield* daysFromNow(7)
        const now = yield* DateTime.now

        const restriction = yield* moderation.restrict({ staffId: staff, userId: target, reason: "spam", until })
        expect(restriction).toEqual({ userId: target, reason: "spam", until, restrictedBy: staff, createdAt: now })
        expect(Option.isNone(yield* blocks.find(target))).toBe(true)

        const block = yield* moderation.block({ staffId: staff, userId: target, reason: "fraud", until: null })
        expect(block).toEqual({ userId: target, reason: "fraud", until: null, blockedBy: staff, createdAt: now })
        expect(yield* blocks.find(target)).toEqual(Option.some(block))

        yield* moderation.unblock({ staffId: staff, userId: target })
        expect(Option.isNone(yield* blocks.find(target))).toBe(true)
        expect(yield* moderation.restriction(target)).toEqual(Option.some(restriction))
        // lifting what is not there is fine
        yield* moderation.unblock({ staffId: staff, userId: target })
        yield* moderation.unrestrict({ staffId: staff, userId: target })
        yield* moderation.unrestrict({ staffId: staff, userId: target })
        expect(Option.isNone(yield* moderation.restriction(target))).toBe(true)
      })
    )

    it.effect("a restriction counts until its term ends; setting it again replaces it; a permanent one stays", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const standings = yield* AccountStandings.AccountStandings
        const staff = yield* staffAccount
        const target = yield* newAccount()
        const restricted = () =>
          Effect.map(
            standings.read(target),
            Option.map((standing) => standing.restricted)
          )

        expect(yield* restricted()).toEqual(Option.some(false))
        yield* moderation.restrict({ staffId: staff, userId: target, reason: "spam", until: yield* daysFromNow(30) })
        yield* moderation.restrict({ staffId: staff, userId: target, reason: "abuse", until: yield* daysFromNow(7) })
        expect(Option.getOrThrow(yield* moderation.restriction(target)).reason).toBe("abuse")
        expect(yield* restricted()).toEqual(Option.some(true))

        yield* TestClock.adjust("7 days")
        expect(Option.isNone(yield* moderation.restriction(target))).toBe(true)
        expect(yield* restricted()).toEqual(Option.some(false))

        yield* moderation.restrict({ staffId: staff, userId: target, reason: "fraud", until: null })
        yield* TestClock.adjust("3650 days")
        expect(Option.getOrThrow(yield* moderation.restriction(target))).toMatchObject({ reason: "fraud", until: null })
        expect(yield* restricted()).toEqual(Option.some(true))
        // an unknown account has no standing at all
        expect(Option.isNone(yield* standings.read(yield* ids.next))).toBe(true)
      })
    )

    it.effect("every act is logged with who did it and the term; refusals and no-op lifts are not", () =>
      Effect.gen(function* () {
        const moderation = yield* Moderation
        const staff = yield* staffAccount
        const target = yield* newAccount()
        const until = yield* daysFromNow(7)
        const { exit, lines } = yield* capture(
          Effect.gen(function* () {
            yield* moderation.block({ staffId: staff, userId: target, reason: "spam", until })
            yield* moderation.unblock({ staffId: staff, userId: target })
            yield* moderation.unblock({ staffId: staff, userId: target })
            yield* moderation.restrict({ staffId: staff, userId: target, reason: "spam", until: null })
            yield* moderation.unrestrict({ staffId: staff, userId: target })
            yield* Effect.exit(moderation.block({ staffId: target, userId: staff, reason: "spam", until: null }))
          })
        )
        expect(Exit.isSuccess(exit)).toBe(true)
        expect(lines).toEqual([
          `moderation: user ${target} blocked by ${staff} until ${DateTime.formatIso(until)}`,
          `moderation: user ${target} unblocked by ${staff}`,
          `moderation: user ${target} restricted by ${staff} until forever`,
          `moderation: user ${target} unrestricted by ${staff}`
        ])
      })
    )
  })
})
