/**
 * OAuthRepo on PostgreSQL (`oauth_codes`, `oauth_grants`, `oauth_access_tokens`,
 * `oauth_refresh_tokens`, migration 0021). Races are settled by conditional updates: a code is
 * spent and its grant created in one statement (concurrent redemptions wait on the row and find it
 * spent), a refresh token is spent by `UPDATE … WHERE NOT spent` in the transaction that adds its
 * successor pair. A revoked grant's tokens are refused by the join that finds them.
 */
import { OAuthGrant, OAuthRepo } from "@veche/oauth"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Scopes = Schema.Array(OAuthGrant.Scope)

const GrantRow = Schema.Struct({
  id: Schema.BigInt,
  application_id: Schema.BigInt,
  user_id: Schema.BigInt,
  scopes: Scopes,
  confidential: Schema.Boolean,
  created_at: Schema.Date
})
const decodeGrants = Schema.decodeUnknownEffect(Schema.Array(GrantRow))

const AccessRow = Schema.Struct({ ...GrantRow.fields, expires_at: Schema.Date })
const decodeAccess = Schema.decodeUnknownEffect(Schema.Array(AccessRow))

const CodeRow = Schema.Struct({
  application_id: Schema.BigInt,
  user_id: Schema.BigInt,
  redirect_uri: Schema.NullOr(Schema.String),
  scopes: Scopes,
  code_challenge: Schema.NullOr(Schema.String),
  created_at: Schema.Date,
  expires_at: Schema.Date
})
const decodeCodes = Schema.decodeUnknownEffect(Schema.Array(CodeRow))

const id = (value: bigint) => Snowflake.Snowflake.make(String(value))

const toGrant = (row: typeof GrantRow.Type): OAuthGrant.Grant => ({
  id: id(row.id),
  applicationId: id(row.application_id),
  userId: id(row.user_id),
  scopes: row.scopes,
  confidential: row.confidential,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

const GRANT_COLUMNS = "g.id, g.application_id, g.user_id, g.scopes, g.confidential, g.created_at"

export const layer: Layer.Layer<OAuthRepo.OAuthRepo, never, SqlClient.SqlClient> = Layer.effect(
  OAuthRepo.OAuthRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const grantColumns = sql.unsafe(GRANT_COLUMNS)
    const date = DateTime.toDateUtc

    const insertPair = (grantId: Snowflake.Snowflake, pair: OAuthGrant.StoredPair) =>
      Effect.andThen(
        sql`INSERT INTO oauth_access_tokens ${sql.insert({
          digest: pair.access.digest,
          grant_id: grantId,
          expires_at: date(pair.access.expiresAt)
        })}`,
        sql`INSERT INTO oauth_refresh_tokens ${sql.insert({ digest: pair.refresh.digest, grant_id: grantId })}`
      )

    const redeemCode = (digest: string, fresh: OAuthRepo.NewGrant, now: DateTime.Utc) =>
      Effect.gen(function* () {
        // One statement: the code is spent and its grant made, or neither (a concurrent redemption
        // waits on the row lock, then finds it spent).
        const spent = yield* Effect.flatMap(
          sql`
            WITH spent AS (
              UPDATE oauth_codes SET used_at = ${date(now)}, grant_id = ${fresh.id}
              WHERE digest = ${digest} AND used_at IS NULL AND expires_at > ${date(now)}
              RETURNING application_id, user_id, redirect_uri, scopes, code_challenge, created_at, expires_at
            ), made AS (
              INSERT INTO oauth_grants (id, application_id, user_id, scopes, confidential, created_at)
              SELECT ${fresh.id}, application_id, user_id, scopes, ${fresh.confidential}, ${date(now)} FROM spent
              RETURNING id
            )
            SELECT spent.* FROM spent, made`,
          decodeCodes
        )
        const row = spent[0]
        if (row !== undefined) {
          const code: OAuthGrant.StoredCode = {
            digest,
            applicationId: id(row.application_id),
            userId: id(row.user_id),
            redirectUri: row.redirect_uri,
            scopes: row.scopes,
            codeChallenge: row.code_challenge,
            createdAt: DateTime.fromDateUnsafe(row.created_at),
            expiresAt: DateTime.fromDateUnsafe(row.expires_at)
          }
          const grant: OAuthGrant.Grant = {
            id: fresh.id,
            applicationId: code.applicationId,
            userId: code.userId,
            scopes: code.scopes,
            confidential: fresh.confidential,
            createdAt: now
          }
          return { _tag: "Redeemed", code, grant } satisfies OAuthRepo.Redemption
        }
        // Spent before: the grant its first use made ends, with every token it issued.
        const replayed = yield* sql`
          UPDATE oauth_grants g SET revoked_at = coalesce(g.revoked_at, ${date(now)})
          FROM oauth_codes c
          WHERE c.digest = ${digest} AND c.used_at IS NOT NULL AND g.id = c.grant_id
          RETURNING g.id`
        return (replayed.length > 0 ? { _tag: "Replayed" } : { _tag: "Unknown" }) satisfies OAuthRepo.Redemption
      }).pipe(Effect.orDie)

    const rotate = (digest: string, next: OAuthGrant.StoredPair, now: DateTime.Utc) =>
      Effect.gen(function* () {
        const rotated = yield* sql.withTransaction(
          Effect.gen(function* () {
            const grants = yield* Effect.flatMap(
              sql`
                UPDATE oauth_refresh_tokens t SET spent = true
                FROM oauth_grants g
                WHERE t.digest = ${digest} AND NOT t.spent AND g.id = t.grant_id AND g.revoked_at IS NULL
                RETURNING ${grantColumns}`,
              decodeGrants
            )
            const grant = grants[0]
            if (grant === undefined) return Option.none<OAuthGrant.Grant>()
            yield* insertPair(id(grant.id), next)
            return Option.some(toGrant(grant))
          })
        )
        if (Option.isSome(rotated)) return { _tag: "Rotated", grant: rotated.value } satisfies OAuthRepo.Rotation
        // A spent token of a live grant: reuse, and the whole chain ends.
        const reused = yield* sql`
          UPDATE oauth_grants g SET revoked_at = ${date(now)}
          FROM oauth_refresh_tokens t
          WHERE t.digest = ${digest} AND t.spent AND g.id = t.grant_id AND g.revoked_at IS NULL
          RETURNING g.id`
        return (reused.length > 0 ? { _tag: "Reused" } : { _tag: "Unknown" }) satisfies OAuthRepo.Rotation
      }).pipe(Effect.orDie)

    return OAuthRepo.OAuthRepo.of({
      insertCode: (code) =>
        sql`INSERT INTO oauth_codes ${sql.insert({
          digest: code.digest,
          application_id: code.applicationId,
          user_id: code.userId,
          redirect_uri: code.redirectUri,
          scopes: JSON.stringify(code.scopes),
          code_challenge: code.codeChallenge,
          created_at: date(code.createdAt),
          expires_at: date(code.expiresAt)
        })}`.pipe(Effect.asVoid, Effect.orDie),
      redeemCode,
      addPair: (grantId, pair) => sql.withTransaction(insertPair(grantId, pair)).pipe(Effect.asVoid, Effect.orDie),
      findAccess: (digest, now) =>
        Effect.flatMap(
          sql`
            SELECT ${grantColumns}, t.expires_at FROM oauth_access_tokens t
            JOIN oauth_grants g ON g.id = t.grant_id
            WHERE t.digest = ${digest} AND g.revoked_at IS NULL`,
          decodeAccess
        ).pipe(
          Effect.map((rows): OAuthRepo.AccessLookup => {
            const row = rows[0]
            if (row === undefined) return { _tag: "Unknown" }
            if (row.expires_at.getTime() <= DateTime.toEpochMillis(now)) return { _tag: "Expired" }
            return { _tag: "Found", grant: toGrant(row) }
          }),
          Effect.orDie
        ),
      findRefreshGrant: (digest) =>
        Effect.flatMap(
          sql`
            SELECT ${grantColumns} FROM oauth_refresh_tokens t
            JOIN oauth_grants g ON g.id = t.grant_id
            WHERE t.digest = ${digest} AND g.revoked_at IS NULL`,
          decodeGrants
        ).pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toGrant)),
          Effect.orDie
        ),
      rotate,
      revokeGrant: (grantId, now) =>
        sql`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, ${date(now)}) WHERE id = ${grantId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      revokeByToken: (digest, applicationId, now) =>
        sql`
          UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, ${date(now)})
          WHERE (${applicationId}::bigint IS NULL OR application_id = ${applicationId}) AND id IN (
            SELECT grant_id FROM oauth_access_tokens WHERE digest = ${digest}
            UNION ALL SELECT grant_id FROM oauth_refresh_tokens WHERE digest = ${digest}
          )`.pipe(Effect.asVoid, Effect.orDie),
      revokeApplication: (applicationId, now) =>
        sql
          .withTransaction(
            Effect.andThen(
              sql`
                UPDATE oauth_grants SET revoked_at = ${date(now)}
                WHERE application_id = ${applicationId} AND revoked_at IS NULL`,
              sql`
                UPDATE oauth_codes SET used_at = ${date(now)}
                WHERE application_id = ${applicationId} AND used_at IS NULL`
            )
          )
          .pipe(Effect.asVoid, Effect.orDie),
      grantsOf: (userId) =>
        Effect.flatMap(
          sql`
            SELECT ${grantColumns} FROM oauth_grants g
            WHERE g.user_id = ${userId} AND g.revoked_at IS NULL ORDER BY g.id`,
          decodeGrants
        ).pipe(
          Effect.map((rows) => rows.map(toGrant)),
          Effect.orDie
        ),
      revokeUser: (userId, now) =>
        sql
          .withTransaction(
            Effect.andThen(
              sql`UPDATE oauth_grants SET revoked_at = ${date(now)} WHERE user_id = ${userId} AND revoked_at IS NULL`,
              sql`UPDATE oauth_codes SET used_at = ${date(now)} WHERE user_id = ${userId} AND used_at IS NULL`
            )
          )
          .pipe(Effect.asVoid, Effect.orDie),
      hasLiveGrant: (applicationId, userId) =>
        sql<{ readonly live: boolean }>`
          SELECT EXISTS (
            SELECT 1 FROM oauth_grants
            WHERE application_id = ${applicationId} AND user_id = ${userId} AND revoked_at IS NULL
          ) AS live`.pipe(
          Effect.map((rows) => rows[0]?.live === true),
          Effect.orDie
        ),
      // Three statements, each bounded and SKIP LOCKED (nodes sweeping at once take different rows).
      // A removed grant's tokens go with it (ON DELETE CASCADE).
      sweep: (cutoff, limit) => {
        const removeBefore = (table: string, key: string, column: string) =>
          Effect.map(
            sql<{ readonly n: bigint | number | string }>`
              WITH doomed AS (
                SELECT ${sql(key)} FROM ${sql(table)} WHERE ${sql(column)} < ${date(cutoff)}
                LIMIT ${limit} FOR UPDATE SKIP LOCKED),
              gone AS (DELETE FROM ${sql(table)} t USING doomed WHERE t.${sql(key)} = doomed.${sql(key)} RETURNING 1)
              SELECT count(*) AS n FROM gone`,
            (rows) => Number(rows[0]?.n ?? 0)
          )
        return Effect.all({
          codes: removeBefore("oauth_codes", "digest", "expires_at"),
          grants: removeBefore("oauth_grants", "id", "revoked_at"),
          accessTokens: removeBefore("oauth_access_tokens", "digest", "expires_at")
        }).pipe(Effect.orDie)
      }
    })
  })
)
