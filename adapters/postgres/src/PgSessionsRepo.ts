/**
 * SessionsRepo on PostgreSQL (tables `sessions` and `session_tokens`, migration 0002). A session is
 * usable only while its `password_changed_at` is the account's (migration 0017): every lookup joins
 * the account's credentials row by primary key (absent for sessions of bare user ids in tests,
 * which then match a NULL).
 */
import { SessionsRepo } from "@veche/auth"
import { Limits } from "@veche/billing"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { BlockColumns, SELECT_BLOCK, toBlock } from "./BlockRow.ts"
import { idArray } from "./internal/IdArray.ts"
import { SNAPSHOT_JOINS, SnapshotColumns, snapshotColumns, toSnapshot } from "./PgAccountSnapshots.ts"
import * as Prebuilt from "./PrebuiltStatement.ts"
import * as PrincipalCache from "./PrincipalCache.ts"
import * as RowGuard from "./RowGuard.ts"

const SessionRow = Schema.Struct({
  id: Schema.BigInt,
  user_id: Schema.BigInt,
  user_agent: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String),
  created_at: Schema.Date,
  last_used_at: Schema.Date,
  expires_at: Schema.Date,
  revoked_at: Schema.NullOr(Schema.Date),
  password_changed_at: Schema.NullOr(Schema.Date)
})
const decodeSessions = Schema.decodeUnknownEffect(Schema.Array(SessionRow))

const snowflake = (n: bigint) => Snowflake.Snowflake.make(String(n))
const utc = DateTime.fromDateUnsafe
const date = DateTime.toDateUtc
const PLUS_PREMIUM_TYPE = Limits.plus().premiumType

type Valid = Extract<SessionsRepo.AccessLookup, { readonly _tag: "Valid" }>

const toSession = (row: typeof SessionRow.Type) => ({
  id: snowflake(row.id),
  userId: snowflake(row.user_id),
  client: { userAgent: row.user_agent, address: row.address, country: row.country },
  createdAt: utc(row.created_at),
  lastUsedAt: utc(row.last_used_at),
  expiresAt: utc(row.expires_at),
  revokedAt: row.revoked_at === null ? null : utc(row.revoked_at),
  passwordChangedAt: row.password_changed_at === null ? null : utc(row.password_changed_at)
})

/**
 * The session `s` was started under the account's current password. A LEFT JOIN of credentials `c`
 * on `s.user_id` must be in the query. Equality, not order: the session copied the value it saw.
 */
const UNDER_CURRENT_PASSWORD = "s.password_changed_at IS NOT DISTINCT FROM c.password_changed_at"

const AccessRow = Schema.Struct({
  session_id: Schema.BigInt,
  user_id: Schema.BigInt,
  token_expires_at: Schema.NullOr(Schema.Date),
  session_expires_at: Schema.Date,
  last_used_at: Schema.Date,
  ...BlockColumns
})
const AccessWithAccountRow = Schema.Struct({
  ...AccessRow.fields,
  ...SnapshotColumns,
  guild_ids: Schema.Array(Schema.String),
  premium_until: Schema.NullOr(Schema.Date),
  email_pending_until: Schema.NullOr(Schema.Date)
})
const SpentRow = Schema.Struct({ session_id: Schema.BigInt, user_id: Schema.BigInt, expires_at: Schema.Date })
const UsedRow = Schema.Struct({ session_id: Schema.BigInt, used_at: Schema.NullOr(Schema.Date), live: Schema.Boolean })
const LiveRow = Schema.Struct({ session_id: Schema.BigInt, user_id: Schema.BigInt, ...BlockColumns })
const CountRow = Schema.Struct({ count: Schema.BigInt })
const SweptRow = Schema.Struct({ sessions: Schema.BigInt, tokens: Schema.BigInt })

export const layer: Layer.Layer<SessionsRepo.SessionsRepo, never, SqlClient.SqlClient> = Layer.effect(
  SessionsRepo.SessionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The lookups' answers kept in this process while PostgreSQL reports no change (PrincipalCache).
    const cache = Option.getOrUndefined(yield* Effect.serviceOption(PrincipalCache.PrincipalCache))
    // SQL failures and rows not of their schema are infrastructure faults: defects, answered 500 at
    // the edge. The rows are checked in place (RowGuard), not decoded into copies: the lookup runs
    // on every authenticated request. Each check is built once per row shape, not per query.
    const rows = <S extends Schema.Top>(schema: S) => {
      const isRow = RowGuard.of(schema)
      return (query: Effect.Effect<ReadonlyArray<unknown>, unknown>): Effect.Effect<ReadonlyArray<S["Type"]>> =>
        Effect.orDie(
          Effect.flatMap(query, (found) =>
            found.every(isRow)
              ? Effect.succeed(found)
              : Effect.die(new Error("PgSessionsRepo: a row not of its schema"))
          )
        )
    }
    const accessRows = rows(AccessRow)
    const accessWithAccountRows = rows(AccessWithAccountRow)
    const spentRows = rows(SpentRow)
    const usedRows = rows(UsedRow)
    const liveRows = rows(LiveRow)
    const countRows = rows(CountRow)
    const sweptRows = rows(SweptRow)

    // Login and refresh are single statements (data-modifying CTEs), not transactions: one round
    // trip instead of four to six, and no connection held apart from the pipelined pool. A single
    // statement is atomic; the foreign keys are checked at its end, when both inserts are done.
    /** The new pair inserted for the session in the statement's CTE `source` (its `session_id`). */
    const insertTokens = (next: SessionsRepo.NewTokens, source: "session" | "spent") =>
      sql`INSERT INTO session_tokens (digest, session_id, kind, expires_at, used_at)
          SELECT ${next.access.digest}, session_id, 'access', ${date(next.access.expiresAt)}::timestamptz, NULL::timestamptz
          FROM ${sql(source)}
          UNION ALL
          SELECT ${next.refresh.digest}, session_id, 'refresh', NULL::timestamptz, NULL::timestamptz FROM ${sql(source)}`

    const create: SessionsRepo.SessionsRepo["Service"]["create"] = (session, tokens) =>
      sql`WITH session AS (
            INSERT INTO sessions ${sql.insert({
              id: session.id,
              user_id: session.userId,
              user_agent: session.client.userAgent,
              address: session.client.address,
              country: session.client.country,
              created_at: date(session.createdAt),
              last_used_at: date(session.lastUsedAt),
              expires_at: date(session.expiresAt),
              revoked_at: session.revokedAt === null ? null : date(session.revokedAt),
              password_changed_at: session.passwordChangedAt === null ? null : date(session.passwordChangedAt)
            })}
            RETURNING id AS session_id)
          ${insertTokens(tokens, "session")}`.pipe(Effect.asVoid, Effect.orDie)

    const expired = (row: typeof AccessRow.Type, now: DateTime.Utc) =>
      row.token_expires_at !== null && row.token_expires_at.getTime() <= DateTime.toEpochMillis(now)
    const validOf = (row: typeof AccessRow.Type, account?: SessionsRepo.AccessAccount) =>
      ({
        _tag: "Valid",
        grant: { sessionId: snowflake(row.session_id), userId: snowflake(row.user_id) },
        lastUsedAt: utc(row.last_used_at),
        block: toBlock(row.user_id, row),
        account
      }) as const

    // The token, its session, the account's block and the password check: joins on primary keys.
    const ACCESS_FROM = `session_tokens t JOIN sessions s ON s.id = t.session_id
            LEFT JOIN account_blocks b ON b.user_id = s.user_id
            LEFT JOIN credentials c ON c.user_id = s.user_id`
    const accessWhere = (digest: string, now: DateTime.Utc) =>
      sql`t.digest = ${digest} AND t.kind = 'access'
              AND s.revoked_at IS NULL AND s.expires_at > ${date(now)} AND ${sql.unsafe(UNDER_CURRENT_PASSWORD)}`

    // The account's block comes in the same round trip: a join on its primary key.
    const accessOnly = Prebuilt.statement(
      sql,
      (digest, now) =>
        sql`SELECT t.session_id, s.user_id, t.expires_at AS token_expires_at, s.expires_at AS session_expires_at,
                   s.last_used_at, ${sql.unsafe(SELECT_BLOCK)}
            FROM ${sql.unsafe(ACCESS_FROM)}
            WHERE ${accessWhere(digest, now)}`
    )
    // A kept answer lasts until the token or its session ends (the statement's own time tests).
    const accessUntil = (row: typeof AccessRow.Type) =>
      Math.min(row.token_expires_at?.getTime() ?? Number.POSITIVE_INFINITY, row.session_expires_at.getTime())
    /**
     * A lookup whose valid answer the cache keeps until the `until` it is given with; Unknown and
     * Expired are never kept (guessing traffic would fill the cache). The ticket is taken before the
     * statement is sent: an invalidation of the user meanwhile refuses the answer. Both lookups run
     * on every authenticated request that misses: data-first `map` and the row by index.
     */
    const keptLookup =
      <R extends typeof AccessRow.Type>(
        account: boolean,
        read: (digest: string, now: DateTime.Utc) => Effect.Effect<ReadonlyArray<R>>,
        answer: (row: R, nowMs: number) => { readonly found: Valid; readonly until: number }
      ) =>
      (digest: string, now: DateTime.Utc): Effect.Effect<SessionsRepo.AccessLookup> => {
        const ticket = cache === undefined ? 0 : cache.ticket()
        return Effect.map(read(digest, now), (rows): SessionsRepo.AccessLookup => {
          const row = rows[0]
          if (row === undefined) return { _tag: "Unknown" }
          if (expired(row, now)) return { _tag: "Expired" }
          const { found, until } = answer(row, DateTime.toEpochMillis(now))
          cache?.keep(ticket, digest, account, String(row.user_id), found, until)
          return found
        })
      }
    const findAccessOnly = keptLookup(
      false,
      (digest, now) => accessRows(accessOnly(digest, now)),
      (row) => ({ found: validOf(row), until: accessUntil(row) })
    )

    // GET /users/@me in one statement: the lookup above plus the account snapshot (PgAccountSnapshots'
    // columns; `c` is already joined), the user's guilds in join order (as PgGuildsMembers.guildsOf)
    // and the Plus term (billing's Entitlements: Plus runs while a stored term has not ended; one
    // row a user). `email_pending_until`: when the pending address shown can next change by itself.
    const accessWithAccount = Prebuilt.statement(
      sql,
      (digest, now) =>
        sql`SELECT t.session_id, s.user_id, t.expires_at AS token_expires_at, s.expires_at AS session_expires_at,
                   s.last_used_at, ${sql.unsafe(SELECT_BLOCK)},
                   ${snapshotColumns(sql, now)},
                   ARRAY(SELECT m.guild_id::text FROM guild_members m
                         WHERE m.user_id = s.user_id ORDER BY m.joined_at, m.guild_id) AS guild_ids,
                   (SELECT bp.premium_until FROM billing_plus bp WHERE bp.user_id = s.user_id) AS premium_until,
                   (SELECT min(l.expires_at) FROM email_links l
                     WHERE l.user_id = s.user_id AND l.purpose = 'bind' AND l.used_at IS NULL
                       AND l.expires_at > ${date(now)}) AS email_pending_until
            FROM ${sql.unsafe(ACCESS_FROM)}
            LEFT JOIN users u ON u.id = s.user_id
            ${sql.unsafe(SNAPSHOT_JOINS)}
            WHERE ${accessWhere(digest, now)}`
    )
    const findAccessWithAccount = keptLookup(
      true,
      (digest, now) => accessWithAccountRows(accessWithAccount(digest, now)),
      (row, nowMs) => {
        const plusUntil = row.premium_until === null ? Number.NEGATIVE_INFINITY : row.premium_until.getTime()
        const plus = plusUntil > nowMs
        return {
          found: validOf(row, {
            snapshot: toSnapshot(row),
            guildIds: row.guild_ids.map((id) => Snowflake.Snowflake.make(id)),
            premiumType: plus ? PLUS_PREMIUM_TYPE : Limits.FREE.premiumType
          }),
          until: Math.min(
            accessUntil(row),
            plus ? plusUntil : Number.POSITIVE_INFINITY,
            row.email_pending_until?.getTime() ?? Number.POSITIVE_INFINITY
          )
        }
      }
    )

    // A kept answer first, else the statement.
    const findAccess: SessionsRepo.SessionsRepo["Service"]["findAccess"] = (digest, now, withAccount) => {
      const account = withAccount === true
      if (cache !== undefined) {
        const kept = cache.get(digest, account, DateTime.toEpochMillis(now))
        if (kept !== undefined) return Effect.succeed(kept)
      }
      return account ? findAccessWithAccount(digest, now) : findAccessOnly(digest, now)
    }

    const rotate: SessionsRepo.SessionsRepo["Service"]["rotate"] = (refreshDigest, next, now) =>
      Effect.gen(function* () {
        // Spend the token and put the new pair in its place in one statement. The row lock of the
        // spending update makes a concurrent refresh with the same token wait, and then find
        // used_at set: exactly one of them rotates.
        const [spent] = yield* spentRows(
          sql`WITH spent AS (
                UPDATE session_tokens t SET used_at = ${date(now)}
                FROM sessions s LEFT JOIN credentials c ON c.user_id = s.user_id
                WHERE t.digest = ${refreshDigest} AND t.kind = 'refresh' AND t.used_at IS NULL
                  AND s.id = t.session_id AND s.revoked_at IS NULL AND s.expires_at > ${date(now)}
                  AND ${sql.unsafe(UNDER_CURRENT_PASSWORD)}
                RETURNING t.session_id, s.user_id, s.expires_at),
              dropped AS (
                DELETE FROM session_tokens d USING spent
                WHERE d.session_id = spent.session_id AND d.kind = 'access'),
              added AS (${insertTokens(next, "spent")}),
              touched AS (
                UPDATE sessions SET last_used_at = ${date(now)} FROM spent WHERE sessions.id = spent.session_id)
              SELECT session_id, user_id, expires_at FROM spent`
        )
        if (spent !== undefined) {
          return {
            _tag: "Rotated",
            grant: { sessionId: snowflake(spent.session_id), userId: snowflake(spent.user_id) },
            sessionExpiresAt: utc(spent.expires_at)
          } as const
        }
        // Not spendable: unknown, dead, or spent before. Spent before, however recently, is a reuse
        // (a stolen token replayed, or the loser of a race, which cannot be told apart from one):
        // the whole session ends. A concurrent loser gets here only after the winner's statement
        // committed (it waited on the row lock), so it always sees used_at set.
        const [used] = yield* usedRows(
          sql`SELECT t.session_id, t.used_at,
                     (s.revoked_at IS NULL AND s.expires_at > ${date(now)} AND ${sql.unsafe(UNDER_CURRENT_PASSWORD)}) AS live
              FROM session_tokens t JOIN sessions s ON s.id = t.session_id
              LEFT JOIN credentials c ON c.user_id = s.user_id
              WHERE t.digest = ${refreshDigest} AND t.kind = 'refresh'`
        )
        if (used === undefined || used.used_at === null || !used.live) return { _tag: "Rejected" } as const
        yield* sql`UPDATE sessions SET revoked_at = ${date(now)} WHERE id = ${String(used.session_id)} AND revoked_at IS NULL`.pipe(
          Effect.orDie
        )
        return { _tag: "Reused", sessionId: snowflake(used.session_id) } as const
      })

    const touch: SessionsRepo.SessionsRepo["Service"]["touch"] = (sessionId, now) =>
      sql`UPDATE sessions SET last_used_at = ${date(now)} WHERE id = ${sessionId}`.pipe(Effect.asVoid, Effect.orDie)

    const listLive: SessionsRepo.SessionsRepo["Service"]["listLive"] = (userId, now) =>
      sql`SELECT s.* FROM sessions s LEFT JOIN credentials c ON c.user_id = s.user_id
          WHERE s.user_id = ${userId} AND s.revoked_at IS NULL AND s.expires_at > ${date(now)}
            AND ${sql.unsafe(UNDER_CURRENT_PASSWORD)}
          ORDER BY s.created_at DESC, s.id DESC`.pipe(
        Effect.flatMap(decodeSessions),
        Effect.map((found) => found.map(toSession)),
        Effect.orDie
      )

    const findLive: SessionsRepo.SessionsRepo["Service"]["findLive"] = (sessionIds, now) =>
      sessionIds.length === 0
        ? Effect.succeed([])
        : liveRows(
            sql`SELECT s.id AS session_id, s.user_id, ${sql.unsafe(SELECT_BLOCK)}
                FROM sessions s LEFT JOIN account_blocks b ON b.user_id = s.user_id
                  LEFT JOIN credentials c ON c.user_id = s.user_id
                WHERE s.id = ANY(${idArray(sessionIds)}::bigint[])
                  AND s.revoked_at IS NULL AND s.expires_at > ${date(now)} AND ${sql.unsafe(UNDER_CURRENT_PASSWORD)}`
          ).pipe(
            Effect.map((found) =>
              found.map((row) => ({
                sessionId: snowflake(row.session_id),
                userId: snowflake(row.user_id),
                block: toBlock(row.user_id, row)
              }))
            )
          )

    const revoke: SessionsRepo.SessionsRepo["Service"]["revoke"] = (sessionId, now) =>
      sql`UPDATE sessions SET revoked_at = ${date(now)} WHERE id = ${sessionId} AND revoked_at IS NULL`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const revokeAll: SessionsRepo.SessionsRepo["Service"]["revokeAll"] = (userId, keep, now) =>
      countRows(
        sql`WITH ended AS (
              UPDATE sessions SET revoked_at = ${date(now)}
              WHERE user_id = ${userId} AND revoked_at IS NULL AND id <> ${keep ?? "0"}
              RETURNING 1)
            SELECT count(*) AS count FROM ended`
      ).pipe(Effect.map(([row]) => Number(row?.count ?? 0n)))

    // One statement per batch: pick at most `limit` dead sessions (indexes of migration 0018), lock
    // them, and delete their tokens and them. SKIP LOCKED: sweeps on several nodes take different
    // rows instead of waiting on each other, and a session a request holds is left for next time.
    const sweep: SessionsRepo.SessionsRepo["Service"]["sweep"] = (cutoff, limit) =>
      sweptRows(
        sql`WITH doomed AS (
              SELECT id FROM sessions
              WHERE revoked_at <= ${date(cutoff)} OR expires_at <= ${date(cutoff)}
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED),
            tokens AS (
              DELETE FROM session_tokens t USING doomed WHERE t.session_id = doomed.id RETURNING 1),
            gone AS (
              DELETE FROM sessions s USING doomed WHERE s.id = doomed.id RETURNING 1)
            SELECT (SELECT count(*) FROM gone) AS sessions, (SELECT count(*) FROM tokens) AS tokens`
      ).pipe(Effect.map(([row]) => ({ sessions: Number(row?.sessions ?? 0n), tokens: Number(row?.tokens ?? 0n) })))

    return SessionsRepo.SessionsRepo.of({
      create,
      findAccess,
      rotate,
      touch,
      findLive,
      listLive,
      revoke,
      revokeAll,
      sweep
    })
  })
)
