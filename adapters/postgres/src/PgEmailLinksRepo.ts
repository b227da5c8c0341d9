/**
 * EmailLinksRepo on PostgreSQL (table `email_links`, migration 0007). A link is used by one
 * conditional UPDATE … RETURNING, so of concurrent uses exactly one gets the row. Time is the `now`
 * the caller passes, never the server's clock.
 */
import { EmailLink, EmailLinksRepo } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const LinkRow = Schema.Struct({
  id: Schema.BigInt,
  purpose: EmailLink.Purpose,
  token_digest: Schema.String,
  user_id: Schema.BigInt,
  email: Schema.String,
  created_at: Schema.Date,
  expires_at: Schema.Date,
  used_at: Schema.NullOr(Schema.Date)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(LinkRow))

const toLink = (row: typeof LinkRow.Type): EmailLink.EmailLink => ({
  id: Snowflake.Snowflake.make(String(row.id)),
  purpose: row.purpose,
  tokenDigest: row.token_digest,
  userId: Snowflake.Snowflake.make(String(row.user_id)),
  email: row.email,
  createdAt: DateTime.fromDateUnsafe(row.created_at),
  expiresAt: DateTime.fromDateUnsafe(row.expires_at),
  usedAt: row.used_at === null ? null : DateTime.fromDateUnsafe(row.used_at)
})

export const layer: Layer.Layer<EmailLinksRepo.EmailLinksRepo, never, SqlClient.SqlClient> = Layer.effect(
  EmailLinksRepo.EmailLinksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const date = DateTime.toDateUtc
    return EmailLinksRepo.EmailLinksRepo.of({
      create: (link) =>
        sql`INSERT INTO email_links ${sql.insert({
          id: link.id,
          purpose: link.purpose,
          token_digest: link.tokenDigest,
          user_id: link.userId,
          email: link.email,
          created_at: date(link.createdAt),
          expires_at: date(link.expiresAt),
          used_at: link.usedAt === null ? null : date(link.usedAt)
        })}`.pipe(Effect.asVoid, Effect.orDie),
      use: (tokenDigest, purpose, now) =>
        sql`
          UPDATE email_links SET used_at = ${date(now)}
          WHERE token_digest = ${tokenDigest} AND purpose = ${purpose}
            AND used_at IS NULL AND expires_at > ${date(now)}
          RETURNING *`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toLink)),
          Effect.orDie
        ),
      find: (tokenDigest, purpose, now) =>
        sql`
          SELECT * FROM email_links
          WHERE token_digest = ${tokenDigest} AND purpose = ${purpose}
            AND used_at IS NULL AND expires_at > ${date(now)}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toLink)),
          Effect.orDie
        ),
      newestOpen: (userId, purpose, now) =>
        sql`
          SELECT * FROM email_links
          WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${date(now)}
          ORDER BY created_at DESC, id DESC LIMIT 1`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toLink)),
          Effect.orDie
        ),
      burnFor: (userId, purpose, now) =>
        sql`
          UPDATE email_links SET used_at = ${date(now)}
          WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
