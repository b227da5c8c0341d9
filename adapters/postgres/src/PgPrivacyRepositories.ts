/** The privacy domain's repositories (deletion requests, data exports) on PostgreSQL, over one SqlClient. */
import type { PrivacyDomain } from "@veche/privacy"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgDataExportsRepo from "./PgDataExportsRepo.ts"
import * as PgDeletionsRepo from "./PgDeletionsRepo.ts"

export const layer: Layer.Layer<PrivacyDomain.Repositories, never, SqlClient.SqlClient> = Layer.merge(
  PgDeletionsRepo.layer,
  PgDataExportsRepo.layer
)
