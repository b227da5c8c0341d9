/** The guilds domain's repositories on PostgreSQL, over one SqlClient. */
import type { GuildsDomain } from "@veche/guilds"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgGuildsRepo from "./PgGuildsRepo.ts"

export const layer: Layer.Layer<GuildsDomain.Repositories, never, SqlClient.SqlClient> = PgGuildsRepo.layer
