/** The moderation domain's repositories on PostgreSQL, over one SqlClient. */
import type { ModerationDomain } from "@veche/moderation"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgAuditLogRepo from "./PgAuditLogRepo.ts"
import * as PgSanctionsRepo from "./PgSanctionsRepo.ts"

export const layer: Layer.Layer<ModerationDomain.Repositories, never, SqlClient.SqlClient> = Layer.merge(
  PgSanctionsRepo.layer,
  PgAuditLogRepo.layer
)
