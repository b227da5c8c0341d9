/** Handlers of the staff group: sanctions and the statistics. */
import { Principal, RestApi } from "@veche/api"
import type { Block } from "@veche/auth"
import { InvalidFormBody } from "@veche/errors"
import { AuditLog, Moderation, ModerationStats, type Sanction } from "@veche/moderation"
import { DateTime, Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./ModerationRefusals.ts"

const term = (until: DateTime.Utc | null) => (until === null ? null : DateTime.formatIso(until))

const blockView = (block: Block.Block) => ({
  user_id: block.userId,
  reason: block.reason,
  until: term(block.until),
  blocked_by: block.blockedBy,
  created_at: DateTime.formatIso(block.createdAt)
})

const restrictionView = (restriction: Sanction.Restriction) => ({
  user_id: restriction.userId,
  reason: restriction.reason,
  until: term(restriction.until),
  restricted_by: restriction.restrictedBy,
  created_at: DateTime.formatIso(restriction.createdAt)
})

const lookedView = (looked: Moderation.Looked) => ({
  user: {
    id: looked.user.id,
    username: looked.user.username,
    global_name: looked.user.global_name,
    avatar: looked.user.avatar,
    bot: looked.user.bot
  },
  phone: looked.phone,
  created_at: looked.createdAt === null ? null : DateTime.formatIso(looked.createdAt),
  block: Option.getOrNull(Option.map(looked.block, blockView)),
  restriction: Option.getOrNull(Option.map(looked.restriction, restrictionView)),
  billing: {
    plus_active: looked.billing.plusActive,
    premium_until: term(looked.billing.premiumUntil),
    boosts_total: looked.billing.boostsTotal,
    boosts_free: looked.billing.boostsFree
  }
})

export const layer: GroupLayer.Authorized<
  "moderation",
  Moderation.Moderation | AuditLog.AuditLog | ModerationStats.ModerationStats
> = HttpApiBuilder.group(RestApi.RestApi, "moderation", (handlers) =>
  Effect.gen(function* () {
    const moderation = yield* Moderation.Moderation
    const audit = yield* AuditLog.AuditLog
    const stats = yield* ModerationStats.ModerationStats
    return handlers
      .handle("findUser", ({ query }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          if ((query.id === undefined) === (query.phone === undefined))
            return yield* InvalidFormBody.field(["id"], "BASE_TYPE_REQUIRED", "Give exactly one of id or phone.")
          const looked = yield* moderation.lookup(
            staff.userId,
            query.id !== undefined ? { userId: query.id } : { phone: query.phone as NonNullable<typeof query.phone> }
          )
          return lookedView(looked)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("auditLog", ({ query }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          const entries = yield* audit.read(staff.userId, {
            limit: query.limit,
            before: query.before ?? null,
            action: query.action ?? null,
            targetId: query.target ?? null
          })
          return {
            entries: entries.map((entry) => ({
              id: entry.id,
              user_id: entry.staffId,
              action: entry.action,
              target_type: entry.targetType,
              target_id: entry.targetId,
              reason: entry.reason,
              details: entry.details,
              created_at: DateTime.formatIso(entry.createdAt)
            }))
          }
        }).pipe(Effect.mapError(refuse))
      )
      .handle("blockUser", ({ params, payload }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          const block = yield* moderation.block({
            staffId: staff.userId,
            userId: params.user_id,
            reason: payload.reason,
            until: payload.until ?? null
          })
          return blockView(block)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("unblockUser", ({ params }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          yield* moderation.unblock({ staffId: staff.userId, userId: params.user_id })
        }).pipe(Effect.mapError(refuse))
      )
      .handle("restrictUser", ({ params, payload }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          const restriction = yield* moderation.restrict({
            staffId: staff.userId,
            userId: params.user_id,
            reason: payload.reason,
            until: payload.until ?? null
          })
          return restrictionView(restriction)
        }).pipe(Effect.mapError(refuse))
      )
      .handle("unrestrictUser", ({ params }) =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          yield* moderation.unrestrict({ staffId: staff.userId, userId: params.user_id })
        }).pipe(Effect.mapError(refuse))
      )
      .handle("moderationStats", () =>
        Effect.gen(function* () {
          const staff = yield* Principal.requireUser
          const read = yield* stats.read(staff.userId)
          return { ...read, at: DateTime.formatIso(read.at) }
        }).pipe(Effect.mapError(refuse))
      )
  })
)
