/** The users domain's repositories on PostgreSQL, over one SqlClient. */
import type { UsersDomain } from "@veche/users"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgProfilesRepo from "./PgProfilesRepo.ts"
import * as PgRelationshipsRepo from "./PgRelationshipsRepo.ts"
import * as PgUsersRepo from "./PgUsersRepo.ts"

export const layer: Layer.Layer<UsersDomain.Repositories, never, SqlClient.SqlClient> = Layer.mergeAll(
  PgUsersRepo.layer,
  PgProfilesRepo.layer,
  PgRelationshipsRepo.layer
)
