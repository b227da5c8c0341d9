/**
 * VerificationsRepo on PostgreSQL (table `verifications`, migration 0003).
 *
 * Every change is one conditional UPDATE … RETURNING on the record's row. Concurrent statements on
 * one row queue behind its lock and then re-check their WHERE clause against the row as the winner
 * left it (READ COMMITTED), so two right codes cannot both consume a record and ten wrong ones
 * cannot count past the limit. A submitted code is judged inside the statement's SET, never in its
 * WHERE: a WHERE that compares lets a non-matching row be skipped without its lock. Time is the `now` the caller passes, never the server's clock, so
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

/** A row as `consume` decided it, and whether the submitted code was the record's. */
const DecidedRow = Schema.Struct({ ...VerificationRow.fields, matched: Schema.Boolean })
const decodeDecided = Schema.decodeUnknownEffect(Schema.Array(DecidedRow))

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

    /** NotFound or Burned, for a submission no statement could change: is the record there at all? */
    const notUsable = Effect.fnUntraced(function* (id: Snowflake.Snowflake, purpose: Verification.Purpose, at: Date) {
      const [seen] = yield* sql`SELECT id FROM verifications
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at}`.pipe(Effect.orDie)
      return seen === undefined ? Verification.ConsumeResult.NotFound() : Verification.ConsumeResult.Burned()
    })

    const consume = Effect.fn("PgVerificationsRepo.consume")(function* (
      id: Snowflake.Snowflake,
      purpose: Verification.Purpose,
      codeDigest: string,
      now: DateTime.Utc,
      options?: { readonly hold?: boolean | undefined }
    ) {
      const at = date(now)
      const use = options?.hold !== true
      // One statement decides: count, then compare, then consume. Its WHERE matches every live,
      // unused, unburned row, so every submission takes the row lock and the decision is made on the
      // row as the previous submission left it (the SET side reads the old values): only the first
      // `max_attempts` counted have their code compared, and the one after burns the record. A WHERE
      // that compared the code would let a wrong guess skip the lock and be judged while the count
      // still said 0 — the race issue 16 measured.
      const [row] = yield* sql`UPDATE verifications SET
              attempts = CASE WHEN attempts < max_attempts THEN attempts + 1 ELSE attempts END,
              consumed_at = CASE WHEN attempts < max_attempts AND code_digest = ${codeDigest} AND ${use}
                                 THEN ${at}::timestamptz END,
              status = CASE WHEN attempts >= max_attempts THEN 'failed'
                            WHEN code_digest = ${codeDigest} AND ${use} THEN 'ok'
                            ELSE status END
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at}
              AND consumed_at IS NULL AND status <> 'failed'
            RETURNING ${returning}, code_digest = ${codeDigest} AS matched`.pipe(
        Effect.flatMap(decodeDecided),
        Effect.orDie
      )
      if (row === undefined) return yield* notUsable(id, purpose, at)
      const record = toVerification(row)
      // `failed` here was set by this statement (the WHERE skips burned rows): no attempt was left.
      if (record.status === "failed") return Verification.ConsumeResult.Burned()
      if (record.consumedAt !== null) return Verification.ConsumeResult.Consumed({ record })
      if (row.matched) return Verification.ConsumeResult.Matched({ record })
      return Verification.ConsumeResult.WrongCode({ attemptsLeft: record.maxAttempts - record.attempts })
    })

    const consumeMatched = Effect.fn("PgVerificationsRepo.consumeMatched")(function* (
      id: Snowflake.Snowflake,
      purpose: Verification.Purpose,
      codeDigest: string,
      now: DateTime.Utc
    ) {
      const at = date(now)
      // The held submission was the attempt: `<=` lets it finish even if it was the last one.
      const consumed = yield* first(
        sql`UPDATE verifications SET consumed_at = ${at}, status = 'ok'
            WHERE id = ${id} AND purpose = ${purpose} AND expires_at > ${at}
              AND consumed_at IS NULL AND status <> 'failed' AND attempts <= max_attempts
              AND code_digest = ${codeDigest}
            RETURNING ${returning}`
      )
      if (Option.isSome(consumed)) return Verification.ConsumeResult.Consumed({ record: consumed.value })
      return yield* notUsable(id, purpose, at).pipe(
        Effect.map((result) => (result._tag === "NotFound" ? result : Verification.ConsumeResult.Burned()))
      )
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
      consumeMatched,

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
