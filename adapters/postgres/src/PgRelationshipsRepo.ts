/** RelationshipsRepo on PostgreSQL (table `relationships`, migration 0012). */
import { Snowflake } from "@veche/platform"
import { Relationship, RelationshipsRepo } from "@veche/users"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Row = Schema.Struct({
  user_id: Schema.BigInt,
  other_id: Schema.BigInt,
  type: Relationship.Type,
  nickname: Schema.NullOr(Schema.String),
  since: Schema.Date
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

export const layer: Layer.Layer<RelationshipsRepo.RelationshipsRepo, never, SqlClient.SqlClient> = Layer.effect(
  RelationshipsRepo.RelationshipsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return RelationshipsRepo.RelationshipsRepo.of({
      list: (userId) =>
        sql`SELECT user_id, other_id, type, nickname, since FROM relationships
            WHERE user_id = ${userId} ORDER BY since, other_id`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) =>
            rows.map(
              (row): Relationship.Relationship => ({
                userId: Snowflake.Snowflake.make(String(row.user_id)),
                otherId: Snowflake.Snowflake.make(String(row.other_id)),
                type: row.type,
                nickname: row.nickname,
                since: DateTime.fromDateUnsafe(row.since)
              })
            )
          ),
          Effect.orDie
        ),
      put: (relationship) =>
        sql`INSERT INTO relationships ${sql.insert({
          user_id: relationship.userId,
          other_id: relationship.otherId,
          type: relationship.type,
          nickname: relationship.nickname,
          since: DateTime.toDateUtc(relationship.since)
        })}
        ON CONFLICT (user_id, other_id) DO UPDATE SET type = EXCLUDED.type, nickname = EXCLUDED.nickname,
          since = EXCLUDED.since`.pipe(Effect.asVoid, Effect.orDie),
      remove: (userId, otherId) =>
        sql`DELETE FROM relationships WHERE user_id = ${userId} AND other_id = ${otherId} RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
