/**
 * Staff actions on accounts: blocking (with a reason and an optional end) and unblocking. A block
 * takes effect on the blocked account's very next request (its tokens answer 403 40007) and
 * refuses its logins, refreshes and recoveries; its sessions are kept, so lifting the block
 * restores them. Restricting is the shadow counterpart: the account works as before, but the
 * flows that ask `restriction` (friend requests, invitations) refuse it with 20025 until the term
 * ends. Every action is logged with who did it.
 *
 * Both are one sanction with a kind: the same checks (staff, an existing account, not oneself, an
 * end in the future), the same store; only the refusals, the log's verb and the view answered (a
 * `Block` with `blockedBy`, a `Restriction` with `restrictedBy`) tell them apart.
 */
import { AccountLookup, type Block, type Phone } from "@veche/auth"
import { type Snowflake, Spans } from "@veche/platform"
import { type PublicUser, PublicUsers } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import * as AccountBilling from "./AccountBilling.ts"
import { ACTIONS } from "./AuditEntry.ts"
import { AuditLog } from "./AuditLog.ts"
import {
  BlockEndInPast,
  CannotBlockSelf,
  CannotRestrictSelf,
  NoSuchUser,
  NotStaff,
  RestrictionEndInPast
} from "./ModerationErrors.ts"
import * as Sanction from "./Sanction.ts"
import { SanctionsRepo } from "./SanctionsRepo.ts"
import { Staff } from "./Staff.ts"

export interface SanctionRequest {
  readonly staffId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
  readonly reason: string
  /** The end of the term; null for a permanent one. */
  readonly until: DateTime.Utc | null
}

export interface LiftRequest {
  readonly staffId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
}

/** What differs between the kinds: their refusals and how the log names the act. */
interface Rules<View, OnSelf, EndInPast> {
  readonly kind: Sanction.Kind
  /** The kind's view of a sanction, as the service answers it. */
  readonly view: (sanction: Sanction.Sanction) => View
  readonly onSelf: () => OnSelf
  readonly endInPast: () => EndInPast
  readonly set: string
  readonly lifted: string
  /** The audit log's actions for setting and lifting. */
  readonly setAction: string
  readonly liftAction: string
}

/**
 * What staff see of an account they look up: the user, its phone, its sanctions (active or ended),
 * and its Plus and boost slots.
 */
export interface Looked {
  readonly user: PublicUser.PublicUser
  readonly phone: Phone.PhoneNumber | null
  /** When the account was made; null for an account without credentials (a bot). */
  readonly createdAt: DateTime.Utc | null
  readonly block: Option.Option<Block.Block>
  readonly restriction: Option.Option<Sanction.Restriction>
  readonly billing: AccountBilling.Facts
}

const BLOCK: Rules<Block.Block, CannotBlockSelf, BlockEndInPast> = {
  kind: "block",
  view: Sanction.toBlock,
  onSelf: () => new CannotBlockSelf(),
  endInPast: () => new BlockEndInPast(),
  set: "blocked",
  lifted: "unblocked",
  setAction: ACTIONS.block,
  liftAction: ACTIONS.unblock
}

const RESTRICTION: Rules<Sanction.Restriction, CannotRestrictSelf, RestrictionEndInPast> = {
  kind: "restriction",
  view: Sanction.toRestriction,
  onSelf: () => new CannotRestrictSelf(),
  endInPast: () => new RestrictionEndInPast(),
  set: "restricted",
  lifted: "unrestricted",
  setAction: ACTIONS.restrict,
  liftAction: ACTIONS.unrestrict
}

/** A term that has already ended by `now` (a sanction must end in the future). */
const endsBy = (until: DateTime.Utc | null, now: DateTime.Utc): boolean =>
  until !== null && !DateTime.isGreaterThan(until, now)

const termEnd = (until: DateTime.Utc | null): string => (until === null ? "forever" : DateTime.formatIso(until))

export class Moderation extends Context.Service<
  Moderation,
  {
    readonly block: (
      request: SanctionRequest
    ) => Effect.Effect<Block.Block, NotStaff | NoSuchUser | CannotBlockSelf | BlockEndInPast>
    /** Lifts the block; lifting one that is not there is fine. */
    readonly unblock: (request: LiftRequest) => Effect.Effect<void, NotStaff | NoSuchUser>
    readonly restrict: (
      request: SanctionRequest
    ) => Effect.Effect<Sanction.Restriction, NotStaff | NoSuchUser | CannotRestrictSelf | RestrictionEndInPast>
    /** Lifts the restriction; lifting one that is not there is fine. */
    readonly unrestrict: (request: LiftRequest) => Effect.Effect<void, NotStaff | NoSuchUser>
    /** The account's restriction if it is active now; what friend requests and invitations ask. */
    readonly restriction: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Sanction.Restriction>>
    /** Staff: an account by id or by phone (already normalised), with its sanctions. */
    readonly lookup: (
      staffId: Snowflake.Snowflake,
      key: { readonly userId: Snowflake.Snowflake } | { readonly phone: Phone.PhoneNumber }
    ) => Effect.Effect<Looked, NotStaff | NoSuchUser>
  }
>()("@veche/moderation/Moderation") {
  static readonly layer: Layer.Layer<
    Moderation,
    never,
    Staff | SanctionsRepo | PublicUsers.PublicUsers | AuditLog | AccountLookup.AccountLookup
  > = Layer.effect(
    Moderation,
    Effect.gen(function* () {
      const staff = yield* Staff
      const sanctions = yield* SanctionsRepo
      const users = yield* PublicUsers.PublicUsers
      const audit = yield* AuditLog
      const accounts = yield* AccountLookup.AccountLookup
      const billing = yield* AccountBilling.AccountBilling

      const authorise = Effect.fnUntraced(function* (staffId: Snowflake.Snowflake, userId: Snowflake.Snowflake) {
        if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
        if (Option.isNone(yield* users.find(userId))) return yield* new NoSuchUser()
      })

      const sanction = <View, OnSelf, EndInPast>(name: string, rules: Rules<View, OnSelf, EndInPast>) =>
        Spans.fn(name)(function* (request: SanctionRequest) {
          yield* authorise(request.staffId, request.userId)
          if (request.staffId === request.userId) return yield* Effect.fail(rules.onSelf())
          const now = yield* DateTime.now
          if (endsBy(request.until, now)) return yield* Effect.fail(rules.endInPast())
          const set: Sanction.Sanction = {
            userId: request.userId,
            kind: rules.kind,
            reason: request.reason,
            until: request.until,
            by: request.staffId,
            createdAt: now
          }
          yield* sanctions.put(set)
          yield* audit.record({
            staffId: request.staffId,
            action: rules.setAction,
            targetType: "user",
            targetId: request.userId,
            reason: request.reason,
            details: { until: request.until === null ? null : DateTime.formatIso(request.until) }
          })
          yield* Effect.logInfo(
            `moderation: user ${request.userId} ${rules.set} by ${request.staffId} until ${termEnd(request.until)}`
          )
          return rules.view(set)
        })

      const lift = (name: string, rules: Rules<unknown, unknown, unknown>) =>
        Spans.fn(name)(function* (request: LiftRequest) {
          yield* authorise(request.staffId, request.userId)
          if (yield* sanctions.remove(request.userId, rules.kind)) {
            yield* audit.record({
              staffId: request.staffId,
              action: rules.liftAction,
              targetType: "user",
              targetId: request.userId,
              reason: null
            })
            yield* Effect.logInfo(`moderation: user ${request.userId} ${rules.lifted} by ${request.staffId}`)
          }
        })

      const restriction = Spans.fn("Moderation.restriction")(function* (userId: Snowflake.Snowflake) {
        const now = yield* DateTime.now
        const found = Option.filter(yield* sanctions.find(userId, "restriction"), (sanction) =>
          Sanction.isActive(sanction, now)
        )
        return Option.map(found, Sanction.toRestriction)
      })

      const lookup = Spans.fn("Moderation.lookup")(function* (
        staffId: Snowflake.Snowflake,
        key: { readonly userId: Snowflake.Snowflake } | { readonly phone: Phone.PhoneNumber }
      ) {
        if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
        const userId = "userId" in key ? Option.some(key.userId) : yield* accounts.findByPhone(key.phone)
        if (Option.isNone(userId)) return yield* new NoSuchUser()
        const [user, facts] = yield* Effect.all([users.find(userId.value), accounts.read(userId.value)])
        if (Option.isNone(user)) return yield* new NoSuchUser()
        const [block, restricted, paid] = yield* Effect.all([
          sanctions.find(userId.value, "block"),
          sanctions.find(userId.value, "restriction"),
          billing.of(userId.value)
        ])
        return {
          user: user.value,
          phone: Option.match(facts, { onNone: () => null, onSome: (found) => found.phone }),
          createdAt: Option.match(facts, { onNone: () => null, onSome: (found) => found.createdAt }),
          block: Option.map(block, Sanction.toBlock),
          restriction: Option.map(restricted, Sanction.toRestriction),
          billing: paid
        } satisfies Looked
      })

      return Moderation.of({
        lookup,
        block: sanction("Moderation.block", BLOCK),
        unblock: lift("Moderation.unblock", BLOCK),
        restrict: sanction("Moderation.restrict", RESTRICTION),
        unrestrict: lift("Moderation.unrestrict", RESTRICTION),
        restriction
      })
    })
  )
}
