/**
 * Staff actions on accounts: blocking (with a reason and an optional end) and unblocking. A block
 * takes effect on the blocked account's very next request (its tokens answer 403 40007) and
 * refuses its logins, refreshes and recoveries; its sessions are kept, so lifting the block
 * restores them. Restricting is the shadow counterpart: the account works as before, but the
 * flows that ask `restriction` (friend requests, invitations) refuse it with 20025 until the term
 * ends. Every action is logged with who did it.
 */
import type { Snowflake } from "@veche/platform"
import { UsersRepo } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import type { Block } from "./Block.ts"
import { BlocksRepo } from "./BlocksRepo.ts"
import * as Restriction from "./Restriction.ts"
import { RestrictionsRepo } from "./RestrictionsRepo.ts"
import { Staff } from "./Staff.ts"

/** The caller is not platform staff (403 50013). */
export class NotStaff extends Schema.TaggedError<NotStaff>()("NotStaff", {}) {}

/** No account has this id (404 10013). */
export class NoSuchUser extends Schema.TaggedError<NoSuchUser>()("NoSuchUser", {}) {}

/** Staff cannot block themselves (a mistake that would lock them out of undoing it). */
export class CannotBlockSelf extends Schema.TaggedError<CannotBlockSelf>()("CannotBlockSelf", {}) {}

/** The end of a block must lie in the future. */
export class BlockEndInPast extends Schema.TaggedError<BlockEndInPast>()("BlockEndInPast", {}) {}

/** Staff cannot restrict themselves (as with blocks: a slip, never a useful act). */
export class CannotRestrictSelf extends Schema.TaggedError<CannotRestrictSelf>()("CannotRestrictSelf", {}) {}

/** The end of a restriction must lie in the future. */
export class RestrictionEndInPast extends Schema.TaggedError<RestrictionEndInPast>()("RestrictionEndInPast", {}) {}

/** A term that has already ended by `now` (a block or restriction must end in the future). */
const endsBy = (until: DateTime.Utc | null, now: DateTime.Utc): boolean =>
  until !== null && !DateTime.isGreaterThan(until, now)

const termEnd = (until: DateTime.Utc | null): string => (until === null ? "forever" : DateTime.formatIso(until))

export class Moderation extends Context.Service<
  Moderation,
  {
    readonly block: (request: {
      readonly staffId: Snowflake.Snowflake
      readonly userId: Snowflake.Snowflake
      readonly reason: string
      readonly until: DateTime.Utc | null
    }) => Effect.Effect<Block, NotStaff | NoSuchUser | CannotBlockSelf | BlockEndInPast>
    readonly unblock: (request: {
      readonly staffId: Snowflake.Snowflake
      readonly userId: Snowflake.Snowflake
    }) => Effect.Effect<void, NotStaff | NoSuchUser>
    readonly restrict: (request: {
      readonly staffId: Snowflake.Snowflake
      readonly userId: Snowflake.Snowflake
      readonly reason: string
      readonly until: DateTime.Utc | null
    }) => Effect.Effect<Restriction.Restriction, NotStaff | NoSuchUser | CannotRestrictSelf | RestrictionEndInPast>
    /** Lifts the restriction; lifting one that is not there is fine. */
    readonly unrestrict: (request: {
      readonly staffId: Snowflake.Snowflake
      readonly userId: Snowflake.Snowflake
    }) => Effect.Effect<void, NotStaff | NoSuchUser>
    /** The account's restriction if it is active now; what friend requests and invitations ask. */
    readonly restriction: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Restriction.Restriction>>
  }
>()("@veche/auth/Moderation") {
  static readonly layer: Layer.Layer<Moderation, never, Staff | BlocksRepo | RestrictionsRepo | UsersRepo.UsersRepo> =
    Layer.effect(
      Moderation,
      Effect.gen(function* () {
        const staff = yield* Staff
        const blocks = yield* BlocksRepo
        const restrictions = yield* RestrictionsRepo
        const users = yield* UsersRepo.UsersRepo

        const authorise = Effect.fnUntraced(function* (staffId: Snowflake.Snowflake, userId: Snowflake.Snowflake) {
          if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
          if (Option.isNone(yield* users.findById(userId))) return yield* new NoSuchUser()
        })

        const block = Effect.fn("Moderation.block")(function* (request: {
          readonly staffId: Snowflake.Snowflake
          readonly userId: Snowflake.Snowflake
          readonly reason: string
          readonly until: DateTime.Utc | null
        }) {
          yield* authorise(request.staffId, request.userId)
          if (request.staffId === request.userId) return yield* new CannotBlockSelf()
          const now = yield* DateTime.now
          if (endsBy(request.until, now)) return yield* new BlockEndInPast()
          const set: Block = {
            userId: request.userId,
            reason: request.reason,
            until: request.until,
            blockedBy: request.staffId,
            createdAt: now
          }
          yield* blocks.put(set)
          yield* Effect.logInfo(
            `moderation: user ${request.userId} blocked by ${request.staffId} until ${termEnd(request.until)}`
          )
          return set
        })

        const unblock = Effect.fn("Moderation.unblock")(function* (request: {
          readonly staffId: Snowflake.Snowflake
          readonly userId: Snowflake.Snowflake
        }) {
          yield* authorise(request.staffId, request.userId)
          if (yield* blocks.remove(request.userId)) {
            yield* Effect.logInfo(`moderation: user ${request.userId} unblocked by ${request.staffId}`)
          }
        })

        const restrict = Effect.fn("Moderation.restrict")(function* (request: {
          readonly staffId: Snowflake.Snowflake
          readonly userId: Snowflake.Snowflake
          readonly reason: string
          readonly until: DateTime.Utc | null
        }) {
          yield* authorise(request.staffId, request.userId)
          if (request.staffId === request.userId) return yield* new CannotRestrictSelf()
          const now = yield* DateTime.now
          if (endsBy(request.until, now)) return yield* new RestrictionEndInPast()
          const set: Restriction.Restriction = {
            userId: request.userId,
            reason: request.reason,
            until: request.until,
            restrictedBy: request.staffId,
            createdAt: now
          }
          yield* restrictions.put(set)
          yield* Effect.logInfo(
            `moderation: user ${request.userId} restricted by ${request.staffId} until ${termEnd(request.until)}`
          )
          return set
        })

        const unrestrict = Effect.fn("Moderation.unrestrict")(function* (request: {
          readonly staffId: Snowflake.Snowflake
          readonly userId: Snowflake.Snowflake
        }) {
          yield* authorise(request.staffId, request.userId)
          if (yield* restrictions.remove(request.userId)) {
            yield* Effect.logInfo(`moderation: user ${request.userId} unrestricted by ${request.staffId}`)
          }
        })

        const restriction = Effect.fn("Moderation.restriction")(function* (userId: Snowflake.Snowflake) {
          const now = yield* DateTime.now
          return Option.filter(yield* restrictions.find(userId), (found) => Restriction.isActive(found, now))
        })

        return Moderation.of({ block, unblock, restrict, unrestrict, restriction })
      })
    )
}
