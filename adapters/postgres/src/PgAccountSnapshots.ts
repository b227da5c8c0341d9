/**
 * AccountSnapshots on PostgreSQL: CurrentUser's data in one query (one round trip on the hot path
 * of every client start) over users, credentials, user_profiles, mfa_totp and email_links. The
 * columns and joins are shared with PgSessionsRepo's access lookup, which reads the same snapshot
 * in the token's own statement for `GET /users/@me`.
 */
import { AccountSnapshot } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { Profile } from "@veche/users"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** The snapshot's columns; the user's are null when the users row is absent (a left join). */
export const SnapshotColumns = {
  account_id: Schema.NullOr(Schema.BigInt),
  username: Schema.NullOr(Schema.String),
  display_name: Schema.NullOr(Schema.String),
  account_created_at: Schema.NullOr(Schema.Date),
  phone: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  email_verified: Schema.NullOr(Schema.Boolean),
  mfa_enabled: Schema.Boolean,
  email_pending: Schema.NullOr(Schema.String),
  has_profile: Schema.Boolean,
  bio: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Profile.Status),
  custom_status: Schema.NullOr(Schema.String),
  theme: Schema.NullOr(Schema.String),
  locale: Schema.NullOr(Schema.String),
  guild_order: Schema.NullOr(Schema.Array(Schema.String))
}
const Row = Schema.Struct(SnapshotColumns)
type Row = typeof Row.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

/**
 * The select list of the snapshot columns, over `users u`, `credentials c`, `mfa_totp mt` and
 * `user_profiles p` joined by `snapshotJoins` (or, for `c`, by the query itself).
 */
export const snapshotColumns = (sql: SqlClient.SqlClient, now: DateTime.Utc) => sql`
  u.id AS account_id, u.username, u.display_name, u.created_at AS account_created_at,
  c.phone, c.email, c.email_verified,
  (mt.user_id IS NOT NULL) AS mfa_enabled,
  (SELECT l.email FROM email_links l
    WHERE l.user_id = u.id AND l.purpose = 'bind' AND l.used_at IS NULL
      AND l.expires_at > ${DateTime.toDateUtc(now)}
    ORDER BY l.created_at DESC, l.id DESC LIMIT 1) AS email_pending,
  (p.user_id IS NOT NULL) AS has_profile,
  p.bio, p.avatar, p.banner, p.status, p.custom_status, p.theme, p.locale, p.guild_order`

/** The joins of `mt` and `p` on `u.id` (users and credentials are the query's own). */
export const SNAPSHOT_JOINS = "LEFT JOIN mfa_totp mt ON mt.user_id = u.id LEFT JOIN user_profiles p ON p.user_id = u.id"

const profileOf = (row: Row): Profile.Profile =>
  row.has_profile
    ? {
        bio: row.bio,
        avatar: row.avatar,
        banner: row.banner,
        status: row.status ?? Profile.DEFAULT.status,
        customStatus: row.custom_status === null ? null : { text: row.custom_status },
        theme: row.theme ?? Profile.DEFAULT.theme,
        locale: row.locale ?? Profile.DEFAULT.locale,
        guildOrder: row.guild_order ?? []
      }
    : Profile.DEFAULT

/** None when the users row is absent. */
export const toSnapshot = (row: Row): Option.Option<AccountSnapshot.Snapshot> =>
  row.account_id === null || row.username === null || row.account_created_at === null
    ? Option.none()
    : Option.some({
        user: {
          id: Snowflake.Snowflake.make(String(row.account_id)),
          username: row.username,
          displayName: row.display_name,
          createdAt: DateTime.fromDateUnsafe(row.account_created_at)
        },
        profile: profileOf(row),
        phone: row.phone,
        email: row.email,
        emailVerified: row.email_verified ?? false,
        mfaEnabled: row.mfa_enabled,
        emailPending: row.email_pending
      })

export const layer: Layer.Layer<AccountSnapshot.AccountSnapshots, never, SqlClient.SqlClient> = Layer.effect(
  AccountSnapshot.AccountSnapshots,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return AccountSnapshot.AccountSnapshots.of({
      read: (userId) =>
        Effect.flatMap(DateTime.now, (now) =>
          sql`
            SELECT ${snapshotColumns(sql, now)}
            FROM users u
            LEFT JOIN credentials c ON c.user_id = u.id
            ${sql.unsafe(SNAPSHOT_JOINS)}
            WHERE u.id = ${userId}`.pipe(
            Effect.flatMap(decodeRows),
            Effect.map((rows) => (rows[0] === undefined ? Option.none() : toSnapshot(rows[0]))),
            Effect.orDie
          )
        )
    })
  })
)
