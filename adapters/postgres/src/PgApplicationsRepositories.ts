/** The applications domain's repositories on PostgreSQL, over one SqlClient. */
import type { ApplicationsDomain } from "@veche/applications"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgApplicationsRepo from "./PgApplicationsRepo.ts"

export const layer: Layer.Layer<ApplicationsDomain.Repositories, never, SqlClient.SqlClient> = PgApplicationsRepo.layer
