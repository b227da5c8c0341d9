/**
 * The privacy domain as one layer: account deletion and data exports with their workers, the
 * archive builder, and the registry (`PersonalData`) every domain's part registers in. Its
 * repositories are `Repositories` (on memory: `layerMemoryRepositories`); hosts supply them, the
 * ZIP writer, the file storage, tokens, quotas and ids, and the domains whose parts fill the registry.
 */
import type { PasswordCheck, Tokens } from "@veche/auth"
import type { MediaStorage } from "@veche/media"
import type { Snowflake } from "@veche/platform"
import type { QuotaLimiter } from "@veche/ratelimit"
import type { Memberships, PersonalData } from "@veche/users"
import { Layer } from "effect"
import { AccountDeletion } from "./AccountDeletion.ts"
import { DataExports } from "./DataExports.ts"
import { DataExportsRepo } from "./DataExportsRepo.ts"
import { DeletionsRepo } from "./DeletionsRepo.ts"
import { ExportArchive } from "./ExportArchive.ts"
import type { ZipWriter } from "./ZipWriter.ts"

export type Services = AccountDeletion | DataExports | ExportArchive

/** The repository ports the domain is built on. */
export type Repositories = DeletionsRepo | DataExportsRepo

export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.merge(
  DeletionsRepo.layerMemory,
  DataExportsRepo.layerMemory
)

export const layer: Layer.Layer<
  Services,
  never,
  | Repositories
  | PersonalData.PersonalData
  | Memberships.Memberships
  | PasswordCheck.PasswordCheck
  | Tokens.Tokens
  | QuotaLimiter.QuotaLimiter
  | MediaStorage.MediaStorage
  | Snowflake.SnowflakeGenerator
  | ZipWriter
> = Layer.merge(AccountDeletion.layer, DataExports.layer).pipe(Layer.provideMerge(ExportArchive.layer))
