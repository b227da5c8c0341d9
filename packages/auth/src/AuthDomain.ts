/**
 * The accounts domain as one layer: tokens, sessions and the worker that removes dead ones, the
 * account flows (registration, login, MFA, recovery, e-mail and phone changes), and its part of a
 * user's personal data (registered in the host's PersonalData registry).
 * Its repository list is `Repositories`; `layerMemoryRepositories` answers them in memory. Hosts
 * supply the repositories, the providers, the configuration and secure randomness; the account's
 * block is read through the AccountBlocks port (answered by the moderation domain, or `layerNone`).
 */

import type { Captcha, CarrierCheck, DeliveryQueue, GeoIp, SecretBox, SmsSender, Snowflake } from "@veche/platform"
import type { QuotaLimiter } from "@veche/ratelimit"
import type { PersonalData, PublicUsers, UserRecords } from "@veche/users"
import { Layer } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"
import type { AccountBlocks } from "./AccountBlocks.ts"
import { AccountSnapshots } from "./AccountSnapshot.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import * as AuthFlows from "./AuthFlows.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import { MfaRepo } from "./MfaRepo.ts"
import type { PasswordHasher } from "./PasswordHasher.ts"
import { SessionSweep } from "./SessionSweep.ts"
import { Sessions } from "./Sessions.ts"
import type { SessionsConfig } from "./SessionsConfig.ts"
import { SessionsRepo } from "./SessionsRepo.ts"
import { Tokens } from "./Tokens.ts"
import type { TotpCodes } from "./TotpCodes.ts"
import type { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"
import type { WebLinks } from "./WebLinks.ts"

/** The repository ports of this domain (one adapter each on memory and on PostgreSQL). */
export type Repositories = AccountsRepo | SessionsRepo | VerificationsRepo | MfaRepo | EmailLinksRepo | AccountSnapshots

export type Services = Tokens | Sessions | SessionSweep | Layer.Success<typeof AuthFlows.layer>

export const layer: Layer.Layer<
  Services,
  never,
  | Repositories
  // the account's block (logins, refreshes and recoveries ask it), answered by the moderation domain
  | AccountBlocks
  // users as everybody sees them (registration asks whether a username is taken)
  | PublicUsers.PublicUsers
  // where its part of a user's personal data is registered (deletion and export read it)
  | PersonalData.PersonalData
  | DeliveryQueue.DeliveryQueue
  | QuotaLimiter.QuotaLimiter
  | Captcha.Captcha
  | SmsSender.SmsSender
  | CarrierCheck.CarrierCheck
  // the client's country decides the registration methods offered
  | GeoIp.GeoIp
  | PasswordHasher
  | TotpCodes
  | VerificationCodes
  | SecretBox.SecretBox
  | WebLinks
  | SessionsConfig
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | Digest.Digest
> = AuthFlows.layer.pipe(
  Layer.provideMerge(Layer.merge(Sessions.layer, SessionSweep.layer)),
  Layer.provideMerge(Tokens.layer)
)

/**
 * Every repository of the domain in memory, fresh per build. Sessions read password changes from
 * the accounts beside them, so those are built once here and shared, and blocks through the
 * AccountBlocks port (the host's: the moderation domain's answer over its own store); the accounts
 * and the snapshots write and read users and profiles through the users domain's UserRecords (the
 * host's, over the repositories the users domain serves).
 */
export const layerMemoryRepositories: Layer.Layer<Repositories, never, UserRecords.UserRecords | AccountBlocks> =
  AccountSnapshots.layerFromRepos.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        MfaRepo.layerMemory,
        EmailLinksRepo.layerMemory,
        SessionsRepo.layerMemory,
        VerificationsRepo.layerMemory
      )
    ),
    Layer.provideMerge(AccountsRepo.layerMemory)
  )
