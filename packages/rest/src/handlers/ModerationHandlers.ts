/** Handlers of the staff group: sanctions and the statistics. */
import { Principal, RestApi } from "@veche/api"
import { Moderation, ModerationStats } from "@veche/moderation"
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./ModerationRefusals.ts"

const term = (until: DateTime.Utc | null) => (until === null ? null : DateTime.formatIso(until))

export const layer: GroupLayer.Authorized<"moderation", Moderation.Moderation | ModerationStats.ModerationStats> =
  HttpApiBuilder.group(RestApi.RestApi, "moderation", (handlers) =>
    Effect.gen(function* () {
      const moderation = yield* Moderation.Moderation
      const stats = yield* ModerationStats.ModerationStats
      return handlers
        .handle("blockUser", ({ params, payload }) =>
          Effect.gen(function* () {
            const staff = yield* Principal.requireUser
            const block = yield* moderation.block({
              staffId: staff.userId,
              userId: params.user_id,
              reason: payload.reason,
              until: payload.until ?? null
            })
            return {
              user_id: block.userId,
              reason: block.reason,
              until: term(block.until),
              blocked_by: block.blockedBy,
              created_at: DateTime.formatIso(block.createdAt)
            }
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
            return {
              user_id: restriction.userId,
              reason: restriction.reason,
              until: term(restriction.until),
              restricted_by: restriction.restrictedBy,
              created_at: DateTime.formatIso(restriction.createdAt)
            }
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
