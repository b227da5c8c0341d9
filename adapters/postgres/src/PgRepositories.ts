/** Every repository port on PostgreSQL, over one SqlClient. Hosts provide PgDatabase underneath. */
import type {
  AccountSnapshot,
  AccountsRepo,
  BlocksRepo,
  EmailLinksRepo,
  MfaRepo,
  RestrictionsRepo,
  SessionsRepo,
  VerificationsRepo
} from "@veche/auth"
import type { GuildsRepo } from "@veche/guilds"
import type { PrivacyDomain } from "@veche/privacy"
import type { ProfilesRepo, RelationshipsRepo, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgAccountSnapshots from "./PgAccountSnapshots.ts"
import * as PgAccountsRepo from "./PgAccountsRepo.ts"
import * as PgBlocksRepo from "./PgBlocksRepo.ts"
import * as PgEmailLinksRepo from "./PgEmailLinksRepo.ts"
import * as PgGuildsRepo from "./PgGuildsRepo.ts"
import * as PgMfaRepo from "./PgMfaRepo.ts"
import * as PgPrivacyRepositories from "./PgPrivacyRepositories.ts"
import * as PgProfilesRepo from "./PgProfilesRepo.ts"
import * as PgRelationshipsRepo from "./PgRelationshipsRepo.ts"
import * as PgRestrictionsRepo from "./PgRestrictionsRepo.ts"
import * as PgSessionsRepo from "./PgSessionsRepo.ts"
import * as PgUsersRepo from "./PgUsersRepo.ts"
import * as PgVerificationsRepo from "./PgVerificationsRepo.ts"

// Spelled out (declaration files need it); the test host's `Repositories` is the same list, and the
// PostgreSQL route tests hand this layer to the host, so the two cannot drift apart.
export const layer: Layer.Layer<
  | UsersRepo.UsersRepo
  | AccountsRepo.AccountsRepo
  | SessionsRepo.SessionsRepo
  | VerificationsRepo.VerificationsRepo
  | MfaRepo.MfaRepo
  | EmailLinksRepo.EmailLinksRepo
  | BlocksRepo.BlocksRepo
  | RestrictionsRepo.RestrictionsRepo
  | ProfilesRepo.ProfilesRepo
  | PrivacyDomain.Repositories
  | RelationshipsRepo.RelationshipsRepo
  | AccountSnapshot.AccountSnapshots
  | GuildsRepo.GuildsRepo,
  never,
  SqlClient.SqlClient
> = Layer.mergeAll(
  PgUsersRepo.layer,
  PgAccountsRepo.layer,
  PgSessionsRepo.layer,
  PgVerificationsRepo.layer,
  PgMfaRepo.layer,
  PgEmailLinksRepo.layer,
  PgBlocksRepo.layer,
  PgRestrictionsRepo.layer,
  PgProfilesRepo.layer,
  PgPrivacyRepositories.layer,
  PgRelationshipsRepo.layer,
  PgAccountSnapshots.layer,
  PgGuildsRepo.layer
)
