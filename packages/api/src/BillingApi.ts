/**
 * Billing: plans and limits, the user's status, checkout, boost slots on guilds, and staff grants
 * (`billing`, signed in); the provider's notification webhook (`billingPublic`, no credentials).
 * Pure data. Plans travel in the spec's exact record shape (ID, Kind, Name, PriceRub, Months).
 */

import * as Plans from "@veche/billing/Plans"
import {
  BadGateway,
  BotsCannotUseThisEndpoint,
  Conflict,
  Forbidden,
  InvalidFormBody,
  MissingAccess,
  MissingPermissions,
  NotFound,
  NotImplemented,
  ServiceUnavailable,
  UnknownUser
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams } from "./GuildRoutes.ts"

const Timestamp = Schema.String.annotate({ description: "ISO 8601 timestamp" })

export const UserLimits = Schema.Struct({
  upload_bytes: Schema.Int,
  message_length: Schema.Int,
  max_guilds: Schema.Int,
  custom_emoji_everywhere: Schema.Boolean,
  animated_avatar: Schema.Boolean,
  profile_banner: Schema.Boolean
})

export const GuildLimits = Schema.Struct({
  tier: Schema.Int,
  boosts_required: Schema.Int,
  emoji_static: Schema.Int,
  emoji_animated: Schema.Int,
  stickers: Schema.Int,
  upload_bytes: Schema.Int,
  bitrate_max: Schema.Int,
  vanity_url: Schema.Boolean,
  animated_icon: Schema.Boolean,
  banner: Schema.Boolean
})

export const PlansView = Schema.Struct({
  enabled: Schema.Boolean,
  currency: Schema.Literal("RUB"),
  plans: Schema.Array(Plans.Plan),
  /** Boosts needed for tiers 1, 2, 3. */
  boosts: Schema.Array(Schema.Int),
  tiers: Schema.Array(GuildLimits),
  plus: UserLimits,
  free: UserLimits
})

/** A boost slot: applied to `guild_id` since `started_at`, or free (both null), until `ends_at`. */
export const Boost = Schema.Struct({
  id: Snowflake.Snowflake,
  user_id: Snowflake.Snowflake,
  guild_id: Schema.NullOr(Snowflake.Snowflake),
  started_at: Schema.NullOr(Timestamp),
  ends_at: Timestamp,
  canceled: Schema.Boolean
})

export const Payment = Schema.Struct({
  id: Schema.String,
  plan_id: Schema.String,
  kind: Plans.Kind,
  amount_rub: Schema.Int,
  currency: Schema.Literal("RUB"),
  status: Schema.Literals(["pending", "succeeded", "canceled"]),
  renewal: Schema.Boolean,
  created_at: Timestamp,
  paid_at: Schema.NullOr(Timestamp)
})

export const BillingStatus = Schema.Struct({
  plus: Schema.Struct({
    active: Schema.Boolean,
    premium_until: Schema.NullOr(Timestamp),
    /** A saved card will renew it before it ends. */
    autorenew: Schema.Boolean
  }),
  boosts: Schema.Struct({ total: Schema.Int, free: Schema.Int, slots: Schema.Array(Boost) }),
  payments: Schema.Array(Payment),
  limits: UserLimits
})

export const GuildPremium = Schema.Struct({
  guild_id: Snowflake.Snowflake,
  tier: Schema.Int,
  boost_count: Schema.Int,
  boosters: Schema.Array(
    Schema.Struct({ user_id: Snowflake.Snowflake, boost_id: Snowflake.Snowflake, since: Timestamp, until: Timestamp })
  ),
  /** Boosts the next tier needs (null at tier 3). */
  next_tier_at: Schema.NullOr(Schema.Int),
  limits: GuildLimits
})

export const CheckoutBody = Schema.Struct({
  plan: Fields.lengthBetween(1, 64),
  /** The fiscal receipt's phone: a Russian number, +7 and 10 digits. */
  phone: Fields.lengthBetween(1, 32)
})

/** YooKassa's notification: only the payment id is used (the payment is re-read from the provider). */
export const NotificationBody = Schema.Struct({
  type: Schema.optionalKey(Fields.lengthAtMost(64)),
  event: Schema.optionalKey(Fields.lengthAtMost(64)),
  object: Schema.Struct({ id: Fields.lengthBetween(1, 64) })
})

export const GrantPlusBody = Schema.Struct({ months: Fields.intBetween(1, 24) })
export const GrantBoostsBody = Schema.Struct({ count: Fields.intBetween(1, 14), months: Fields.intBetween(1, 24) })

export const BoostParams = { ...GuildParams, boost_id: Snowflake.Snowflake }
export const UserParams = { user_id: Snowflake.Snowflake }

export class BillingPublicApi extends HttpApiGroup.make("billingPublic")
  .add(
    HttpApiEndpoint.post("billingNotification", "/billing/notifications", {
      payload: NotificationBody,
      success: Schema.Struct({}),
      error: [InvalidFormBody, Forbidden, ServiceUnavailable]
    })
  )
  .annotate(
    OpenApi.Description,
    "The payment provider's webhook: the payment is re-read from the provider; repeats are harmless."
  ) {}

const usersOnly = [BotsCannotUseThisEndpoint] as const

export class BillingApi extends HttpApiGroup.make("billing")
  .add(
    HttpApiEndpoint.get("billingPlans", "/billing/plans", { success: PlansView }),
    HttpApiEndpoint.get("billingStatus", "/billing/status", { success: BillingStatus, error: usersOnly }),
    HttpApiEndpoint.post("billingCheckout", "/billing/checkout", {
      payload: CheckoutBody,
      success: Schema.Struct({ confirmation_url: Schema.String }),
      error: [...usersOnly, InvalidFormBody, NotImplemented, BadGateway]
    }),
    HttpApiEndpoint.get("guildPremium", "/guilds/:guild_id/premium", {
      params: GuildParams,
      success: GuildPremium,
      error: [MissingAccess]
    }),
    HttpApiEndpoint.post("applyBoost", "/guilds/:guild_id/boosts", {
      params: GuildParams,
      success: Boost,
      error: [...usersOnly, MissingAccess, Conflict]
    }),
    HttpApiEndpoint.delete("removeBoost", "/guilds/:guild_id/boosts/:boost_id", {
      params: BoostParams,
      success: HttpApiSchema.NoContent,
      error: [...usersOnly, MissingPermissions, NotFound]
    }),
    HttpApiEndpoint.post("grantPlus", "/moderation/billing/users/:user_id/plus", {
      params: UserParams,
      payload: GrantPlusBody,
      success: Schema.Struct({ premium_until: Timestamp }),
      error: [...usersOnly, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.post("grantBoosts", "/moderation/billing/users/:user_id/boosts", {
      params: UserParams,
      payload: GrantBoostsBody,
      success: Schema.Struct({ granted: Schema.Int }),
      error: [...usersOnly, MissingPermissions, UnknownUser, InvalidFormBody]
    })
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Plus and boosts: plans and limits, the user's status and payments, checkout, boost slots on guilds, staff grants."
  ) {}
