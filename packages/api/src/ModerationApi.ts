/**
 * The staff group: account blocks and restrictions, finding an account by id or phone, the audit log
 * of staff actions, and the statistics. Staff are configured by the operator (SERVICE_STAFF_*). Pure data.
 */
import * as Phone from "@veche/auth/Phone"
import { BotsCannotUseThisEndpoint, InvalidFormBody, MissingPermissions, UnknownUser } from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"

export const BlockBody = Schema.Struct({
  reason: Fields.lengthBetween(1, 200),
  /** ISO 8601 with a time zone; absent or null for a permanent block. */
  until: Schema.optionalKey(Schema.NullOr(Schema.DateTimeUtcFromString))
})

export const BlockView = Schema.Struct({
  user_id: Snowflake.Snowflake,
  reason: Schema.String,
  until: Schema.NullOr(Schema.String),
  blocked_by: Schema.NullOr(Snowflake.Snowflake),
  created_at: Schema.String
})

/** The same rules as a block's: a reason of 1–200 characters, an optional end (null or absent: permanent). */
export const RestrictionBody = Schema.Struct({
  reason: BlockBody.fields.reason,
  until: BlockBody.fields.until
})

export const RestrictionView = Schema.Struct({
  user_id: Snowflake.Snowflake,
  reason: Schema.String,
  until: Schema.NullOr(Schema.String),
  restricted_by: Schema.NullOr(Snowflake.Snowflake),
  created_at: Schema.String
})

const params = { user_id: Snowflake.Snowflake }

/** One staff action: who, what, when, on what, why, and what it set. */
export const AuditLogEntry = Schema.Struct({
  id: Snowflake.Snowflake,
  /** The staff member who acted. */
  user_id: Snowflake.Snowflake,
  /** Dotted by domain: user.block, user.unblock, user.restrict, user.unrestrict, discovery.state, discovery.words, … */
  action: Schema.String,
  target_type: Schema.String,
  target_id: Schema.NullOr(Snowflake.Snowflake),
  reason: Schema.NullOr(Schema.String),
  details: Schema.Record(Schema.String, Schema.NullOr(Schema.Union([Schema.String, Schema.Array(Schema.String)]))),
  created_at: Schema.String
})

/** Newest first; `before` an entry id pages back; `action` and `target` (an id) filter. */
export const AuditLogQuery = {
  limit: Fields.queryLimit(1, 100, 50),
  before: Schema.optionalKey(Snowflake.Snowflake),
  action: Schema.optionalKey(Schema.String.pipe(Schema.check(Schema.isPattern(/^[a-z_]{1,30}(\.[a-z_]{1,30})?$/)))),
  target: Schema.optionalKey(Snowflake.Snowflake)
}

/** Exactly one of `id` or `phone` (any accepted spelling of a +7 number). */
export const UserLookupQuery = {
  id: Schema.optionalKey(Snowflake.Snowflake),
  phone: Schema.optionalKey(Phone.PhoneNumber)
}

/**
 * An account as staff see it: the public user, its phone, when it was made, its sanctions, and its
 * paid state (beyond the spec: the staff panel shows it beside its grants).
 */
export const StaffUserView = Schema.Struct({
  user: Schema.Struct({
    id: Snowflake.Snowflake,
    username: Schema.String,
    global_name: Schema.NullOr(Schema.String),
    avatar: Schema.NullOr(Schema.String),
    bot: Schema.Boolean
  }),
  phone: Schema.NullOr(Schema.String),
  created_at: Schema.NullOr(Schema.String),
  block: Schema.NullOr(BlockView),
  restriction: Schema.NullOr(RestrictionView),
  billing: Schema.Struct({
    plus_active: Schema.Boolean,
    /** The end of the Plus term, past or future; null when the account never had Plus. */
    premium_until: Schema.NullOr(Schema.String),
    /** Boost slots in force, and of those the ones not applied to a guild. */
    boosts_total: Schema.Int,
    boosts_free: Schema.Int
  })
})

const Count = Schema.Int

/** `GET /moderation/stats`: the spec's "Moderation statistics", every key required. */
export const ModerationStats = Schema.Struct({
  /** When the snapshot was taken. */
  at: Schema.String,
  users: Schema.Struct({
    total: Count,
    new_day: Count,
    new_week: Count,
    new_month: Count,
    with_email: Count,
    deleted: Count
  }),
  online: Schema.Struct({ now: Count, peak_day: Count }),
  active: Schema.Struct({ day: Count, week: Count, month: Count }),
  messages: Schema.Struct({ day: Count, week: Count, dm_day: Count }),
  voice: Schema.Struct({
    now: Count,
    streaming_now: Count,
    minutes_day: Count,
    stream_minutes_day: Count,
    call_minutes_day: Count
  }),
  guilds: Schema.Struct({
    total: Count,
    new_week: Count,
    active_week: Count,
    listed: Count,
    top: Schema.Array(Schema.Struct({ id: Snowflake.Snowflake, name: Schema.String, messages: Count, members: Count }))
  }),
  money: Schema.Struct({
    plus_active: Count,
    boosts: Count,
    paid_month_rub: Count,
    referrals_qualified: Count,
    referrals_week: Count,
    sms_balance: Schema.NullOr(Schema.Number)
  }),
  funnel: Schema.Struct({ started: Count, confirmed: Count, recover_started: Count }),
  push_users: Count,
  series: Schema.Struct({
    days: Schema.Array(Schema.String),
    new_users: Schema.Array(Count),
    messages: Schema.Array(Count),
    active: Schema.Array(Count),
    peak_online: Schema.Array(Count)
  })
})

export class ModerationApi extends HttpApiGroup.make("moderation")
  .add(
    HttpApiEndpoint.get("findUser", "/moderation/users", {
      query: UserLookupQuery,
      success: StaffUserView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.get("auditLog", "/moderation/audit-log", {
      query: AuditLogQuery,
      success: Schema.Struct({ entries: Schema.Array(AuditLogEntry) }),
      error: [BotsCannotUseThisEndpoint, MissingPermissions]
    }),
    HttpApiEndpoint.put("blockUser", "/moderation/users/:user_id/block", {
      params,
      payload: BlockBody,
      success: BlockView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("unblockUser", "/moderation/users/:user_id/block", {
      params,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser]
    }),
    HttpApiEndpoint.put("restrictUser", "/moderation/users/:user_id/restriction", {
      params,
      payload: RestrictionBody,
      success: RestrictionView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("unrestrictUser", "/moderation/users/:user_id/restriction", {
      params,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser]
    }),
    HttpApiEndpoint.get("moderationStats", "/moderation/stats", {
      success: ModerationStats,
      error: [BotsCannotUseThisEndpoint, MissingPermissions]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Platform staff only (SERVICE_STAFF_USER_IDS / SERVICE_STAFF_PHONES): find an account by id or phone; block and " +
      "unblock accounts; restrict and lift restrictions (a shadow restriction: friend requests and invitations answer " +
      "20025); read the audit log of staff actions; the platform statistics by Moscow days."
  ) {}
