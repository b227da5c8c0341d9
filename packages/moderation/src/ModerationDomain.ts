/**
 * The moderation domain as one layer: the staff actions (Moderation) and the ports of the domains
 * below that it answers: auth's AccountBlocks (the block logins and refreshes ask) and guilds'
 * AccountStandings (the restriction invitations ask). Hosts supply the sanctions store, who is
 * staff (`StaffConfig.layerConfig` or a fixed list), and the users and accounts services it reads
 * (PublicUsers, and AccountLookup for staff listed by phone). The audit log (AuditLog) records every
 * staff action; other domains call its `record` for theirs.
 */
import type { AccountBlocks, AccountLookup } from "@veche/auth"
import type { AccountStandings } from "@veche/guilds"
import type { Snowflake } from "@veche/platform"
import type { PublicUsers } from "@veche/users"
import { Layer } from "effect"
import { AuditLog } from "./AuditLog.ts"
import { AuditLogRepo } from "./AuditLogRepo.ts"
import * as GuildStandings from "./GuildStandings.ts"
import { Moderation } from "./Moderation.ts"
import * as SanctionBlocks from "./SanctionBlocks.ts"
import { SanctionsRepo } from "./SanctionsRepo.ts"
import { Staff, type StaffConfig } from "./Staff.ts"

export type Services = Moderation | Staff | AuditLog | AccountBlocks.AccountBlocks | AccountStandings.AccountStandings

/** The domain's repository ports (PostgreSQL: `PgSanctionsRepo`, `PgAuditLogRepo`). */
export type Repositories = SanctionsRepo | AuditLogRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.merge(
  SanctionsRepo.layerMemory,
  AuditLogRepo.layerMemory
)

export const layer: Layer.Layer<
  Services,
  never,
  Repositories | StaffConfig | PublicUsers.PublicUsers | AccountLookup.AccountLookup | Snowflake.SnowflakeGenerator
> = Layer.merge(GuildStandings.layer, SanctionBlocks.layer).pipe(
  Layer.provideMerge(Moderation.layer),
  Layer.provideMerge(AuditLog.layer),
  Layer.provideMerge(Staff.layer)
)
