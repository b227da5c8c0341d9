/**
 * VerificationsRepo on PostgreSQL (table `verifications`, migration 0003).
 *
 * Every change is one conditional UPDATE … RETURNING on the record's row. Concurrent statements on
 * one row queue behind its lock and then re-check their WHERE clause against the row as the winner
 * left it (READ COMMITTED), so two right codes cannot both consume a record and ten wrong ones
 * cannot count past the limit. Time is the `now` the caller passes, never the server's clock, so
 * this store and the memory one agree under the test clock.
 */
import { Verification, VerificationsRepo } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const VerificationRow = Schema.Struct({
  id: Schema.BigInt,
  purpose: Verification.Purpose,
  target: Schema.String,
  channel: Verification.Channel,
  code_digest: Schema.String,
  code_length: Verification.CodeLength,
  status: Verification.Status,
  attempts: Schema.Int,
  max_attempts: Schema.Int,
  created_at: Schema.Date,
  expires_at: Schema.Date,
  consumed_at: Schema.NullOr(Schema.Date),
  user_id: Schema.NullOr(Schema.BigInt),
  sms_switched: Schema.Boolean
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(VerificationRow))

const AttemptsRow = Schema.Struct({ attempts: Schema.Int, max_attempts: Schema.Int })
const decodeAttempts = Schema.decodeUnknownEffect(Schema.Array(AttemptsRow))

const snowflake = (n: bigint) => Snowflake.Snowflake.make(String(n))
const utc = DateTime.fromDateUnsafe
const date = DateTime.toDateUtc

const toVerification = (row: typeof VerificationRow.Type): Verification.Verification => ({
  id: snowflake(row.id),
  purpose: row.purpose,
  target: row.target,
  channel: row.channel,
  codeDigest: row.code_digest,
  codeLength: row.code_length,
  status: row.status,
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  createdAt: utc(row.created_at),
  expiresAt: utc(row.expires_at),
  consumedAt: row.consumed_at === null ? null : utc(row.consumed_at),
  userId: row.user_id === null ? null : snowflake(row.user_id),
  smsSwitched: row.sms_switched
})

const COLUMNS = [
  "id",
  "purpose",
  "target",
  "channel",
  "code_digest",
  "code_length",
  "status",
  "attempts",
  "max_attempts",
  "created_at",
  "expires_at",
  "consumed_at",
  "user_id",
  "sms_switched"
] as const

export const layer: Layer.Layer<VerificationsRepo.VerificationsRepo, never, SqlClient.SqlClient> = Layer.effect(
  VerificationsRepo.VerificationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const returning = sql.unsafe(COLUMNS.join(", "))

    // SQL and decoding failures are infrastructure faults: defects on purpose, answered 500 at the edge.
    const records = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((rows) => rows.map(toVerification)),
        Effect.orDie
      )
    const first = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      records(query).pipe(Effect.map((rows) => Option.fromNullishOr(rows[0])))
    const orNotOpen = (id: string) =>
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.fail(new Verification.VerificationNotOpen({ id })),
          onSome: (record: Verification.Verification) => Effect.succeed(record)
        })
      )

    /** The WHERE condition of a record that can still succeed (Verification.isOpen). */
    const open = sql`consumed_at IS NULL AND status <> 'failed' AND attempts < max_attempts`

    const consume = Effect.fn("PgVerificationsRepo.consume")(function* (
      id: Snowflake.Snowflake,
      purpose: Verification.Purpose,
      codeDigest: string,
      now: DateTime.Utc
    ) {
      const at = date(now)
      // 1. The right code on a live, open record: exactly one concurrent submission matches.
      const consumed = yield* first(
        sql`UPDATE verifications SET consumed_at = ${at}, status = 'ok'
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at} AND ${open}
              AND code_digest = ${codeDigest}
            RETURNING ${returning}`
      )
      if (Option.isSome(consumed)) return Verification.ConsumeResult.Consumed({ record: consumed.value })

      // 2. Otherwise count a wrong attempt, but only while attempts remain: the row lock serialises
      //    concurrent increments and each re-checks `attempts < max_attempts`.
      const [counted] = yield* sql`UPDATE verifications SET attempts = attempts + 1
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at} AND ${open}
            RETURNING attempts, max_attempts`.pipe(Effect.flatMap(decodeAttempts), Effect.orDie)
      if (counted !== undefined) {
        return Verification.ConsumeResult.WrongCode({ attemptsLeft: counted.max_attempts - counted.attempts })
      }

      // 3. No attempt left, consumed, burned, or not there at all. A live record that has not
      //    succeeded is burned now; a consumed one keeps its `ok`.
      const [seen] = yield* sql`UPDATE verifications
            SET status = CASE WHEN consumed_at IS NULL THEN 'failed' ELSE status END
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at}
            RETURNING id`.pipe(Effect.orDie)
      return seen === undefined ? Verification.ConsumeResult.NotFound() : Verification.ConsumeResult.Burned()
    })

    return VerificationsRepo.VerificationsRepo.of({
      create: (record) =>
        sql`INSERT INTO verifications ${sql.insert({
          id: record.id,
          purpose: record.purpose,
          target: record.target,
          channel: record.channel,
          code_digest: record.codeDigest,
          code_length: record.codeLength,
          status: record.status,
          attempts: record.attempts,
          max_attempts: record.maxAttempts,
          created_at: date(record.createdAt),
          expires_at: date(record.expiresAt),
          consumed_at: record.consumedAt === null ? null : date(record.consumedAt),
          user_id: record.userId,
          sms_switched: record.smsSwitched
        })}`.pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", () =>
            Effect.fail(new Verification.VerificationIdTaken({ id: record.id }))
          ),
          Effect.catchTag("SqlError", Effect.die)
        ),

      find: (id, purpose, now) =>
        first(
          sql`SELECT ${returning} FROM verifications
              WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${date(now)}`
        ),

      replaceCode: (id, codeDigest, codeLength, channel, expiresAt) =>
        first(
          // `channel` on the right-hand side is the old value: only a move *to* SMS sets the flag.
          sql`UPDATE verifications
              SET code_digest = ${codeDigest}, code_length = ${codeLength}, channel = ${channel},
                  expires_at = ${date(expiresAt)},
                  sms_switched = sms_switched OR (channel <> 'sms' AND ${channel === "sms"})
              WHERE id = ${id} AND ${open}
              RETURNING ${returning}`
        ).pipe(orNotOpen(id)),

      switchToSms: (id, codeDigest, expiresAt) =>
        first(
          sql`UPDATE verifications
              SET code_digest = ${codeDigest}, code_length = 6, channel = 'sms', status = 'needs_code',
                  expires_at = ${date(expiresAt)}, sms_switched = true
              WHERE id = ${id} AND ${open} AND channel = 'mobileid' AND NOT sms_switched
              RETURNING ${returning}`
        ),

      carrierCodeArrived: (id, codeDigest) =>
        first(
          sql`UPDATE verifications SET code_digest = ${codeDigest}, code_length = 4, status = 'needs_code'
              WHERE id = ${id} AND ${open} AND channel = 'mobileid' AND NOT sms_switched AND status = 'pending'
              RETURNING ${returning}`
        ),

      consume,

      setStatus: (id, status) =>
        first(
          sql`UPDATE verifications SET status = ${status} WHERE id = ${id} AND ${open} RETURNING ${returning}`
        ).pipe(orNotOpen(id)),

      invalidateFor: (target, purpose) =>
        sql`UPDATE verifications SET status = 'failed'
            WHERE target = ${target} AND purpose = ${purpose} AND consumed_at IS NULL AND status <> 'failed'
            RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        )
    })
  })
)
