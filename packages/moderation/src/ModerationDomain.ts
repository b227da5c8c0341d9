/**
 * The moderation domain as one layer: the staff actions (Moderation) and the ports of the domains
 * below that it answers: auth's AccountBlocks (the block logins and refreshes ask) and guilds'
 * AccountStandings (the restriction invitations ask). Hosts supply the sanctions store, who is
 * staff (`Staff.layerConfig` or a fixed list; it still reads auth's AccountsRepo, see scripts/check-bounds.ts),
 * and the users and accounts services it reads (PublicUsers, AccountLookup).
 */
import type { AccountBlocks, AccountLookup, AccountsRepo } from "@veche/auth"
import type { AccountStandings } from "@veche/guilds"
import type { PublicUsers } from "@veche/users"
import { Layer } from "effect"
import * as GuildStandings from "./GuildStandings.ts"
import { Moderation } from "./Moderation.ts"
import * as SanctionBlocks from "./SanctionBlocks.ts"
import { SanctionsRepo } from "./SanctionsRepo.ts"
import type { Staff } from "./Staff.ts"

export type Services = Moderation | AccountBlocks.AccountBlocks | AccountStandings.AccountStandings

/** The domain's repository ports (PostgreSQL: `PgSanctionsRepo`). */
export type Repositories = SanctionsRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = SanctionsRepo.layerMemory

export const layer: Layer.Layer<
  Services,
  never,
  Repositories | Staff | PublicUsers.PublicUsers | AccountLookup.AccountLookup | AccountsRepo.AccountsRepo
> = Layer.merge(GuildStandings.layer, SanctionBlocks.layer).pipe(Layer.provideMerge(Moderation.layer))
