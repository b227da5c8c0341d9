/**
 * The catalogue domain as one layer: Discovery over its store and settings. Hosts supply the
 * repository and the ports other domains answer: CatalogueGuilds (guilds), OwnerTwoFactor (auth),
 * CatalogueStaff (moderation), OnlineCounts (the gateway's presence; `OnlineCounts.layerNone` until it exists).
 */
import type { Layer } from "effect"
import type { CatalogueGuilds } from "./CatalogueGuilds.ts"
import type { CatalogueStaff } from "./CatalogueStaff.ts"
import { Discovery } from "./Discovery.ts"
import type { DiscoveryConfig } from "./DiscoveryConfig.ts"
import { DiscoveryRepo } from "./DiscoveryRepo.ts"
import type { OnlineCounts } from "./OnlineCounts.ts"
import type { OwnerTwoFactor } from "./OwnerTwoFactor.ts"

export type Services = Discovery

/** The domain's repository ports (PostgreSQL: `PgDiscoveryRepo`). */
export type Repositories = DiscoveryRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = DiscoveryRepo.layerMemory

export const layer: Layer.Layer<
  Services,
  never,
  Repositories | DiscoveryConfig | CatalogueGuilds | CatalogueStaff | OnlineCounts | OwnerTwoFactor
> = Discovery.layer
