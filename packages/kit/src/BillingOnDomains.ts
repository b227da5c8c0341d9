/**
 * Billing over the domains that answer its ports: guilds for membership (who may see a guild's
 * premium and boost it), moderation for who is staff; the payment provider and the store are the
 * host's. `SERVICE_BILLING_*` settings are read from the host's ConfigProvider.
 */
import {
  Billing,
  BillingConfig,
  BillingDomain,
  BillingRepo,
  BillingStaff,
  BoostGuilds,
  Entitlements,
  Limits,
  type PaymentProvider
} from "@veche/billing"
import { AccountGuildCap, GuildEvents, GuildPremium, GuildsRepo } from "@veche/guilds"
import { AccountBilling, AuditEntry, AuditLog, Staff } from "@veche/moderation"
import type { Snowflake } from "@veche/platform"
import { PersonalData, ProfileEntitlements, PublicUsers } from "@veche/users"
import { type Config, Context, DateTime, Effect, Layer, Option } from "effect"
import { billingSections } from "./BillingPersonalData.ts"

const boostGuilds = Layer.effect(
  BoostGuilds.BoostGuilds,
  Effect.gen(function* () {
    const repo = yield* GuildsRepo.GuildsRepo
    const events = yield* GuildEvents.GuildEvents
    return BoostGuilds.BoostGuilds.of({
      isMember: (userId, guildId) => Effect.map(repo.member(guildId, userId), Option.isSome),
      // GUILD_UPDATE with the new premium_tier and premium_subscription_count (read through GuildPremium)
      premiumChanged: (guildId) =>
        Effect.gen(function* () {
          const guild = yield* repo.find(guildId)
          if (Option.isNone(guild)) return
          yield* events.guildUpdate(guild.value, yield* repo.roles(guildId))
        })
    })
  })
)

/**
 * What the guilds domain shows of boosts (premium_tier, premium_subscription_count), read from
 * billing's store directly: the guilds domain sits below billing in the stack, and the count of
 * slots whose term has not ended is right even before the expiry job has run.
 */
export const guildPremium: Layer.Layer<never, never, BillingRepo.BillingRepo> = Layer.effectContext(
  Effect.map(Effect.service(BillingRepo.BillingRepo), (repo) =>
    Context.make(GuildPremium.GuildPremium, {
      of: (guildId: Snowflake.Snowflake) =>
        Effect.gen(function* () {
          const boosts = yield* repo.guildBoosts(guildId, yield* DateTime.now)
          return { tier: Limits.tierOf(boosts.length), count: boosts.length }
        })
    })
  )
)

/**
 * What Plus unlocks in the domains below billing in the stack, read from billing's entitlements
 * (the store and the settings alone, as `Billing.userLimits` reads them): the account's guild cap
 * (guilds: 100, 200 with Plus), and the banner, animated avatar and `premium_type` (users).
 */
export const entitlementPorts: Layer.Layer<never, Config.ConfigError, BillingRepo.BillingRepo> = Layer.effectContext(
  Effect.map(Effect.service(Entitlements.Entitlements), (entitlements) =>
    Context.make(AccountGuildCap.AccountGuildCap, {
      of: (userId: Snowflake.Snowflake) => Effect.map(entitlements.userLimits(userId), (limits) => limits.maxGuilds)
    }).pipe(
      Context.add(ProfileEntitlements.ProfileEntitlements, {
        of: (userId: Snowflake.Snowflake) =>
          Effect.map(entitlements.userLimits(userId), (limits) => ({
            banner: limits.profileBanner,
            animatedAvatar: limits.animatedAvatar,
            premiumType: limits.premiumType
          }))
      })
    )
  )
).pipe(Layer.provide(Entitlements.Entitlements.layer), Layer.provide(BillingConfig.BillingConfig.layerConfig))

/**
 * What staff see of an account's Plus and boost slots when they look it up (moderation sits below
 * billing in the stack), read from billing's store as `Billing.status` reads it: Plus is in force
 * while its term has not ended, slots count while theirs has not.
 */
export const accountBilling: Layer.Layer<never, never, BillingRepo.BillingRepo> = Layer.effectContext(
  Effect.map(Effect.service(BillingRepo.BillingRepo), (repo) =>
    Context.make(AccountBilling.AccountBilling, {
      of: (userId: Snowflake.Snowflake) =>
        Effect.gen(function* () {
          const now = yield* DateTime.now
          const [plus, slots] = yield* Effect.all([repo.plus(userId), repo.slots(userId, now)])
          const premiumUntil = Option.getOrNull(Option.map(plus, (p) => p.premiumUntil))
          return {
            plusActive: premiumUntil !== null && DateTime.isGreaterThan(premiumUntil, now),
            premiumUntil,
            boostsTotal: slots.length,
            boostsFree: slots.filter((slot) => slot.guildId === null).length
          }
        })
    })
  )
)

// staff grants are checked against moderation's staff list and written to its audit log
const billingStaff = Layer.effect(
  BillingStaff.BillingStaff,
  Effect.gen(function* () {
    const staff = yield* Staff.Staff
    const log = yield* AuditLog.AuditLog
    const users = yield* PublicUsers.PublicUsers
    return BillingStaff.BillingStaff.of({
      isStaff: staff.isStaff,
      // a bot cannot hold Plus or boost slots (it cannot apply them either): no such person to grant to
      accountExists: (userId) =>
        Effect.map(
          users.find(userId),
          Option.exists((user) => !user.bot)
        ),
      recordGrant: (grant) =>
        Effect.asVoid(
          log.record({
            staffId: grant.staffId,
            action: grant.kind === "plus" ? AuditEntry.ACTIONS.grantPlus : AuditEntry.ACTIONS.grantBoosts,
            targetType: "entitlement",
            targetId: grant.userId,
            reason: null,
            details: {
              months: String(grant.months),
              ...(grant.kind === "boosts" ? { count: String(grant.count) } : {}),
              ...(grant.until === null ? {} : { premium_until: DateTime.formatIso(grant.until) })
            }
          })
        )
    })
  })
)

/** Above the guilds in the personal-data order: slots are released while their guilds still stand. */
const BILLING_LEVEL = PersonalData.GUILDS + 15

/**
 * Billing's part of a user's personal data: payments, Plus and active boost slots in the export
 * (`billing.json`, no file for a user who never had any); erasure keeps the payments (accounting)
 * without the receipt phone, and drops Plus, the saved card's token and the boost slots.
 */
const personalData = PersonalData.register(
  Effect.map(Effect.service(Billing.Billing), (billing) => ({
    name: "billing",
    level: BILLING_LEVEL,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(Effect.zip(billing.personalData(userId), DateTime.now), ([record, now]) =>
        billingSections(record, now)
      ),
    erase: billing.forget
  }))
)

export const layer: Layer.Layer<
  BillingDomain.Services,
  Config.ConfigError,
  | PersonalData.PersonalData
  | BillingDomain.Repositories
  | PaymentProvider.PaymentProvider
  | GuildsRepo.GuildsRepo
  | GuildEvents.GuildEvents
  | Staff.Staff
  | AuditLog.AuditLog
  | PublicUsers.PublicUsers
  | Snowflake.SnowflakeGenerator
> = Layer.provideMerge(personalData, BillingDomain.layer).pipe(
  Layer.provide(Layer.mergeAll(boostGuilds, billingStaff, BillingConfig.BillingConfig.layerConfig))
)
