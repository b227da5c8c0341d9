/**
 * The guilds domain over the accounts domain: joining a guild reads the account's standing
 * (verification, restriction) through the guilds' `AccountStandings` port, answered from the
 * accounts and moderation. The Moderation layer is the very value the accounts domain builds, so
 * one build of the kit makes one of it (layers are shared by reference).
 */
import { type AccountsRepo, type BlocksRepo, Moderation, type RestrictionsRepo, type Staff } from "@veche/auth"
import { AccountStandings, GuildsDomain } from "@veche/guilds"
import type { EventBus, Snowflake } from "@veche/platform"
import type { PersonalData, ProfilesRepo, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import type { SecureRandom } from "effect/crypto"

export const layer: Layer.Layer<
  GuildsDomain.Services,
  never,
  | GuildsDomain.Repositories
  | AccountsRepo.AccountsRepo
  | BlocksRepo.BlocksRepo
  | RestrictionsRepo.RestrictionsRepo
  | Staff.Staff
  | UsersRepo.UsersRepo
  | ProfilesRepo.ProfilesRepo
  | EventBus.EventBus
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | PersonalData.PersonalData
> = GuildsDomain.layer.pipe(
  Layer.provide(AccountStandings.AccountStandings.layerFromAccounts.pipe(Layer.provide(Moderation.Moderation.layer)))
)
