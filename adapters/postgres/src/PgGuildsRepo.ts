/**
 * GuildsRepo on PostgreSQL (migrations 0013 and 0014). Every rule that must hold under concurrency
 * is settled by the database, inside one transaction per method:
 *
 * - Locks are always taken in one order, so two steps never wait on each other: the user's advisory
 *   lock (`pg_advisory_xact_lock(userId)`; create, join, accept), then the guild row
 *   (`FOR NO KEY UPDATE`), then rows inside the guild (invites, members, roles, channels, bans).
 *   `accept` finds the invite's guild without a lock and locks the invite row last, after the
 *   guild: steps that delete invites (deleteChannel, remove, the purge in createInvite) hold the
 *   guild row when they do, so an invite-first `accept` could deadlock with them.
 * - The per-user guild cap is counted under the user's lock; the role, channel and invite caps
 *   under the guild row's lock.
 * - Every step that adds or removes members holds the guild row and keeps `guilds.member_count`
 *   exact in the same transaction, so counts are read without counting rows and `transfer`, which
 *   checks membership under the same lock, never hands a guild to someone who just left.
 * - `FOR NO KEY UPDATE` rather than `FOR UPDATE`: the same mutual exclusion between these steps,
 *   without blocking other tables' foreign-key checks against the guild.
 *
 * The adapter is composed from one part per concept (internal/: guilds and members, roles,
 * channels, bans and invites) over the shared rows, records, locks and queries.
 */
import { GuildsRepo } from "@veche/guilds"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as PgGuildChannels from "./internal/PgGuildChannels.ts"
import * as PgGuildInvites from "./internal/PgGuildInvites.ts"
import * as PgGuildLocks from "./internal/PgGuildLocks.ts"
import * as PgGuildQueries from "./internal/PgGuildQueries.ts"
import * as PgGuildRoles from "./internal/PgGuildRoles.ts"
import * as PgGuildsMembers from "./internal/PgGuildsMembers.ts"

export const layer: Layer.Layer<GuildsRepo.GuildsRepo, never, SqlClient.SqlClient> = Layer.effect(
  GuildsRepo.GuildsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const locks = PgGuildLocks.make(sql)
    const queries = PgGuildQueries.make(sql, locks)
    return GuildsRepo.GuildsRepo.of({
      ...PgGuildsMembers.make(sql, locks, queries),
      ...PgGuildRoles.make(sql, locks, queries),
      ...PgGuildChannels.make(sql, locks),
      ...PgGuildInvites.make(sql, locks, queries)
    })
  })
)
