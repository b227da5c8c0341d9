/** The accounts domain's repositories on PostgreSQL, over one SqlClient. */
import type { AuthDomain } from "@veche/auth"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgAccountSnapshots from "./PgAccountSnapshots.ts"
import * as PgAccountsRepo from "./PgAccountsRepo.ts"
import * as PgDataExportsRepo from "./PgDataExportsRepo.ts"
import * as PgDeletionsRepo from "./PgDeletionsRepo.ts"
import * as PgEmailLinksRepo from "./PgEmailLinksRepo.ts"
import * as PgMfaRepo from "./PgMfaRepo.ts"
import * as PgSessionsRepo from "./PgSessionsRepo.ts"
import * as PgVerificationsRepo from "./PgVerificationsRepo.ts"

export const layer: Layer.Layer<AuthDomain.Repositories, never, SqlClient.SqlClient> = Layer.mergeAll(
  PgAccountsRepo.layer,
  PgSessionsRepo.layer,
  PgVerificationsRepo.layer,
  PgMfaRepo.layer,
  PgEmailLinksRepo.layer,
  PgDeletionsRepo.layer,
  PgDataExportsRepo.layer,
  PgAccountSnapshots.layer
)
