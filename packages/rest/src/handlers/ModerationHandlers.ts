/** Handlers of the staff group. */
import { Principal, RestApi } from "@veche/api"
import { Moderation } from "@veche/auth"
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { refusing } from "./AuthRefusals.ts"
import type * as GroupLayer from "./GroupLayer.ts"

export const layer: GroupLayer.Authorized<"moderation", Moderation.Moderation> = HttpApiBuilder.group(
  RestApi.RestApi,
  "moderation",
  (handlers) =>
    Effect.gen(function* () {
      const moderation = yield* Moderation.Moderation
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
              until: block.until === null ? null : DateTime.formatIso(block.until),
              blocked_by: block.blockedBy,
              created_at: DateTime.formatIso(block.createdAt)
            }
          }).pipe(refusing)
        )
        .handle("unblockUser", ({ params }) =>
          Effect.gen(function* () {
            const staff = yield* Principal.requireUser
            yield* moderation.unblock({ staffId: staff.userId, userId: params.user_id })
          }).pipe(refusing)
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
              until: restriction.until === null ? null : DateTime.formatIso(restriction.until),
              restricted_by: restriction.restrictedBy,
              created_at: DateTime.formatIso(restriction.createdAt)
            }
          }).pipe(refusing)
        )
        .handle("unrestrictUser", ({ params }) =>
          Effect.gen(function* () {
            const staff = yield* Principal.requireUser
            yield* moderation.unrestrict({ staffId: staff.userId, userId: params.user_id })
          }).pipe(refusing)
        )
    })
)
