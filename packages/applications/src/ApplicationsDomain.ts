/**
 * The applications domain as one layer: Applications over its store, the secrets it mints and its
 * setting. Hosts supply the repository, the id generator and the ports other domains answer:
 * BotUsers (users), OwnerSecurity (auth), BotGuilds (guilds), ApplicationIcons (media), ClientGrants
 * (oauth).
 */
import type { Snowflake } from "@veche/platform"
import { Layer } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"
import type { ApplicationIcons } from "./ApplicationIcons.ts"
import { ApplicationSecrets } from "./ApplicationSecrets.ts"
import { Applications } from "./Applications.ts"
import type { ApplicationsConfig } from "./ApplicationsConfig.ts"
import { ApplicationsRepo } from "./ApplicationsRepo.ts"
import type { BotGuilds } from "./BotGuilds.ts"
import type { BotUsers } from "./BotUsers.ts"
import type { ClientGrants } from "./ClientGrants.ts"
import type { OwnerSecurity } from "./OwnerSecurity.ts"

export type Services = Applications

/** The domain's repository ports (PostgreSQL: `PgApplicationsRepo`). */
export type Repositories = ApplicationsRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = ApplicationsRepo.layerMemory

export const layer: Layer.Layer<
  Services,
  never,
  | Repositories
  | ApplicationsConfig
  | ApplicationIcons
  | BotUsers
  | BotGuilds
  | ClientGrants
  | OwnerSecurity
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | Digest.Digest
> = Applications.layer.pipe(Layer.provide(ApplicationSecrets.layer))
