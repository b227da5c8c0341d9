/**
 * Billing over the domains that answer its ports: guilds for membership (who may see a guild's
 * premium and boost it), moderation for who is staff; the payment provider and the store are the
 * host's. `SERVICE_BILLING_*` settings are read from the host's ConfigProvider.
 */
import { BillingConfig, BillingDomain, BillingStaff, BoostGuilds } from "@veche/billing"
import { GuildsRepo } from "@veche/guilds"
import { Staff } from "@veche/moderation"
import type { Snowflake } from "@veche/platform"
import { type Config, Effect, Layer, Option } from "effect"
import type { PaymentProvider } from "@veche/billing"

const boostGuilds = Layer.effect(
  BoostGuilds.BoostGuilds,
  Effect.map(Effect.service(GuildsRepo.GuildsRepo), (repo) =>
    BoostGuilds.BoostGuilds.of({
      isMember: (userId, guildId) => Effect.map(repo.member(guildId, userId), Option.isSome),
      // The guild object does not carry premium_tier yet (see the notes): nothing to announce.
      premiumChanged: () => Effect.void
    })
  )
)

const billingStaff = Layer.effect(
  BillingStaff.BillingStaff,
  Effect.map(Effect.service(Staff.Staff), (staff) => BillingStaff.BillingStaff.of({ isStaff: staff.isStaff }))
)

export const layer: Layer.Layer<
  BillingDomain.Services,
  Config.ConfigError,
  | BillingDomain.Repositories
  | PaymentProvider.PaymentProvider
  | GuildsRepo.GuildsRepo
  | Staff.Staff
  | Snowflake.SnowflakeGenerator
> = BillingDomain.layer.pipe(
  Layer.provide(Layer.mergeAll(boostGuilds, billingStaff, BillingConfig.BillingConfig.layerConfig))
)
