/** Every repository port on PostgreSQL, over one SqlClient. Hosts provide PgDatabase underneath. */
import type { UsersRepo } from "@veche/users"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgUsersRepo from "./PgUsersRepo.ts"

export const layer: Layer.Layer<UsersRepo.UsersRepo, never, SqlClient.SqlClient> = PgUsersRepo.layer
