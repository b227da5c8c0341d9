/**
 * The catalogue domain as one layer: Discovery over its store and settings. Hosts supply the
 * repository and the ports other domains answer: CatalogueGuilds (guilds), OwnerTwoFactor (auth),
 * CatalogueStaff and CatalogueAudit (moderation), OnlineCounts (the gateway's presence; `OnlineCounts.layerNone` until it exists).
 */
import { type Config, Layer } from "effect"
import type { CatalogueAudit } from "./CatalogueAudit.ts"
import { CatalogueCheck } from "./CatalogueCheck.ts"
import type { CatalogueGuilds } from "./CatalogueGuilds.ts"
import type { CatalogueStaff } from "./CatalogueStaff.ts"
import { Discovery } from "./Discovery.ts"
import type { DiscoveryConfig } from "./DiscoveryConfig.ts"
import { DiscoveryRepo } from "./DiscoveryRepo.ts"
import type { OnlineCounts } from "./OnlineCounts.ts"
import type { OwnerTwoFactor } from "./OwnerTwoFactor.ts"
import { WordsRepo } from "./WordsRepo.ts"

export type Services = Discovery | CatalogueCheck

/** The domain's repository ports (PostgreSQL: `PgDiscoveryRepo`, `PgWordsRepo`). */
export type Repositories = DiscoveryRepo | WordsRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.merge(
  DiscoveryRepo.layerMemory,
  WordsRepo.layerMemory
)

/** The catalogue check's interval, `SERVICE_DISCOVERY_CHECK_INTERVAL`, is read from the host's ConfigProvider. */
export const layer: Layer.Layer<
  Services,
  Config.ConfigError,
  Repositories | DiscoveryConfig | CatalogueGuilds | CatalogueStaff | CatalogueAudit | OnlineCounts | OwnerTwoFactor
> = CatalogueCheck.layerConfig.pipe(Layer.provideMerge(Discovery.layer))
