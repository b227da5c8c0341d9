/** The catalogue domain's repositories on PostgreSQL, over one SqlClient. */
import type { DiscoveryDomain } from "@veche/discovery"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgDiscoveryRepo from "./PgDiscoveryRepo.ts"
import * as PgWordsRepo from "./PgWordsRepo.ts"

export const layer: Layer.Layer<DiscoveryDomain.Repositories, never, SqlClient.SqlClient> = Layer.merge(
  PgDiscoveryRepo.layer,
  PgWordsRepo.layer
)
