/**
 * Handlers of billing's two groups: the provider's webhook (no credentials; the caller's address,
 * after trusted proxies, is checked against the provider's ranges) and what takes a user (plans,
 * status, checkout, boosts, staff grants). Wire shapes are built here from the domain's values.
 */
import { type BillingApi, Principal, RestApi } from "@veche/api"
import { Billing, type BillingRepo, Limits } from "@veche/billing"
import { ServiceUnavailable } from "@veche/errors"
import { DateTime, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { refuse } from "./BillingRefusals.ts"
import type * as GroupLayer from "./GroupLayer.ts"

const iso = DateTime.formatIso
const isoOrNull = (value: DateTime.Utc | null) => (value === null ? null : iso(value))

const userLimits = (limits: Limits.UserLimits): typeof BillingApi.UserLimits.Type => ({
  upload_bytes: limits.uploadBytes,
  message_length: limits.messageLength,
  max_guilds: limits.maxGuilds,
  custom_emoji_everywhere: limits.customEmojiEverywhere,
  animated_avatar: limits.animatedAvatar,
  profile_banner: limits.profileBanner
})

const guildLimits = (limits: Limits.GuildLimits): typeof BillingApi.GuildLimits.Type => ({
  tier: limits.tier,
  boosts_required: limits.boostsRequired,
  emoji_static: limits.emojiStatic,
  emoji_animated: limits.emojiAnimated,
  stickers: limits.stickers,
  upload_bytes: limits.uploadBytes,
  bitrate_max: limits.bitrateMax,
  vanity_url: limits.vanityUrl,
  animated_icon: limits.animatedIcon,
  banner: limits.banner
})

const boost = (slot: BillingRepo.BoostSlot): typeof BillingApi.Boost.Type => ({
  id: slot.id,
  user_id: slot.userId,
  guild_id: slot.guildId,
  started_at: isoOrNull(slot.appliedAt),
  ends_at: iso(slot.endsAt),
  canceled: false
})

const payment = (order: BillingRepo.Order): typeof BillingApi.Payment.Type => ({
  id: order.id,
  plan_id: order.planId,
  kind: order.kind,
  amount_rub: order.amountRub,
  currency: "RUB",
  status: order.status,
  renewal: order.renewal,
  created_at: iso(order.createdAt),
  paid_at: isoOrNull(order.paidAt)
})

const premium = (view: Billing.GuildPremium): typeof BillingApi.GuildPremium.Type => ({
  guild_id: view.guildId,
  tier: view.tier,
  boost_count: view.boostCount,
  boosters: view.boosts.map((slot) => ({
    user_id: slot.userId,
    boost_id: slot.id,
    since: iso(slot.appliedAt ?? slot.endsAt),
    until: iso(slot.endsAt)
  })),
  next_tier_at: view.nextTierAt,
  limits: guildLimits(Limits.guildLimits(view.boostCount))
})

export const layerPublic: GroupLayer.Public<"billingPublic", Billing.Billing> = HttpApiBuilder.group(
  RestApi.RestApi,
  "billingPublic",
  (handlers) =>
    Effect.gen(function* () {
      const billing = yield* Billing.Billing
      return handlers.handle("billingNotification", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          yield* billing.notify(payload.object.id, Option.getOrNull(request.remoteAddress))
          return {}
        }).pipe(
          // The provider unreachable is our transient failure: 503, so YooKassa delivers again.
          Effect.catchTag("ProviderUnavailable", () => Effect.fail(new ServiceUnavailable())),
          Effect.mapError(refuse)
        )
      )
    })
)

export const layer: GroupLayer.Authorized<"billing", Billing.Billing> = HttpApiBuilder.group(
  RestApi.RestApi,
  "billing",
  (handlers) =>
    Effect.gen(function* () {
      const billing = yield* Billing.Billing
      return handlers
        .handle("billingPlans", () =>
          Effect.map(billing.plans, (view) => ({
            enabled: view.enabled,
            currency: "RUB" as const,
            plans: view.plans,
            boosts: [...Limits.TIER_BOOSTS],
            tiers: view.tiers.map(guildLimits),
            plus: userLimits(view.plus),
            free: userLimits(view.free)
          }))
        )
        .handle("billingStatus", () =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const status = yield* billing.status(user.userId)
            return {
              plus: {
                active: status.plus.active,
                premium_until: isoOrNull(status.plus.premiumUntil),
                autorenew: status.plus.autorenew
              },
              boosts: {
                total: status.boosts.length,
                free: status.boosts.filter((slot) => slot.guildId === null).length,
                slots: status.boosts.map(boost)
              },
              payments: status.payments.map(payment),
              limits: userLimits(yield* billing.userLimits(user.userId))
            }
          })
        )
        .handle("billingCheckout", ({ payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const started = yield* billing.checkout(user.userId, payload.plan, payload.phone)
            return { confirmation_url: started.confirmationUrl }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("guildPremium", ({ params }) =>
          Effect.gen(function* () {
            const caller = yield* Principal.currentActor
            return premium(yield* billing.premiumFor(caller.userId, params.guild_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("applyBoost", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return boost(yield* billing.applyBoost(user.userId, params.guild_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("removeBoost", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            yield* billing.releaseBoost(user.userId, params.guild_id, params.boost_id)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("grantPlus", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const until = yield* billing.grantPlus(user.userId, params.user_id, payload.months)
            return { premium_until: iso(until) }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("grantBoosts", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const granted = yield* billing.grantBoosts(user.userId, params.user_id, payload.count, payload.months)
            return { granted }
          }).pipe(Effect.mapError(refuse))
        )
    })
)
