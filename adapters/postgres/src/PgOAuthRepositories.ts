/** The OAuth provider's repositories on PostgreSQL, over one SqlClient. */
import type { OAuthDomain } from "@veche/oauth"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgOAuthRepo from "./PgOAuthRepo.ts"

export const layer: Layer.Layer<OAuthDomain.Repositories, never, SqlClient.SqlClient> = PgOAuthRepo.layer
