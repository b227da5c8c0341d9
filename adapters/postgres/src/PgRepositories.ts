/** Every repository port on PostgreSQL, over one SqlClient. Hosts provide PgDatabase underneath. */
import { Layer } from "effect"
import * as PgAccountSnapshots from "./PgAccountSnapshots.ts"
import * as PgAccountsRepo from "./PgAccountsRepo.ts"
import * as PgBlocksRepo from "./PgBlocksRepo.ts"
import * as PgDataExportsRepo from "./PgDataExportsRepo.ts"
import * as PgDeletionsRepo from "./PgDeletionsRepo.ts"
import * as PgEmailLinksRepo from "./PgEmailLinksRepo.ts"
import * as PgGuildsRepo from "./PgGuildsRepo.ts"
import * as PgMfaRepo from "./PgMfaRepo.ts"
import * as PgProfilesRepo from "./PgProfilesRepo.ts"
import * as PgRelationshipsRepo from "./PgRelationshipsRepo.ts"
import * as PgRestrictionsRepo from "./PgRestrictionsRepo.ts"
import * as PgSessionsRepo from "./PgSessionsRepo.ts"
import * as PgUsersRepo from "./PgUsersRepo.ts"
import * as PgVerificationsRepo from "./PgVerificationsRepo.ts"

// The ports it provides are the test host's `Repositories`; the host's PostgreSQL route tests hand
// this layer to it, so the two lists cannot drift apart.
export const layer = Layer.mergeAll(
  PgUsersRepo.layer,
  PgAccountsRepo.layer,
  PgSessionsRepo.layer,
  PgVerificationsRepo.layer,
  PgMfaRepo.layer,
  PgEmailLinksRepo.layer,
  PgBlocksRepo.layer,
  PgRestrictionsRepo.layer,
  PgProfilesRepo.layer,
  PgDeletionsRepo.layer,
  PgDataExportsRepo.layer,
  PgRelationshipsRepo.layer,
  PgAccountSnapshots.layer,
  PgGuildsRepo.layer
)
