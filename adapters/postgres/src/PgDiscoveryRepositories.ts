/** The catalogue domain's repositories on PostgreSQL, over one SqlClient. */
import type { DiscoveryDomain } from "@veche/discovery"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgDiscoveryRepo from "./PgDiscoveryRepo.ts"

export const layer: Layer.Layer<DiscoveryDomain.Repositories, never, SqlClient.SqlClient> = PgDiscoveryRepo.layer
