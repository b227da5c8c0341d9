/**
 * MfaRepo on PostgreSQL (tables `mfa_totp` and `mfa_backup_codes`, migration 0005).
 *
 * A time step is used by one conditional UPDATE (`last_step < step`) and a backup code by one
 * DELETE … RETURNING, so of concurrent submissions of one code exactly one matches a row. Enabling
 * and replacing a set run in one transaction each; the TOTP row is locked while its set is replaced.
 */
import { MfaRepo } from "@veche/auth"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const TotpRow = Schema.Struct({
  user_id: Schema.BigInt,
  secret_envelope: Schema.String,
  last_step: Schema.BigInt,
  enabled_at: Schema.Date
})
const decodeTotp = Schema.decodeUnknownEffect(Schema.Array(TotpRow))

const CodeRow = Schema.Struct({ id: Schema.BigInt, hash: Schema.String })
const decodeCodes = Schema.decodeUnknownEffect(Schema.Array(CodeRow))

export const layer: Layer.Layer<MfaRepo.MfaRepo, never, SqlClient.SqlClient> = Layer.effect(
  MfaRepo.MfaRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertCodes = (userId: string, hashes: ReadonlyArray<string>) => {
      const [first, ...rest] = hashes.map((hash) => ({ user_id: userId, hash }))
      return first === undefined ? Effect.void : sql`INSERT INTO mfa_backup_codes ${sql.insert([first, ...rest])}`
    }

    const find: MfaRepo.MfaRepo["Service"]["find"] = (userId) =>
      sql`SELECT user_id, secret_envelope, last_step, enabled_at FROM mfa_totp WHERE user_id = ${userId}`.pipe(
        Effect.flatMap(decodeTotp),
        Effect.map((rows) =>
          Option.map(Option.fromNullishOr(rows[0]), (row) => ({
            userId,
            secretEnvelope: row.secret_envelope,
            lastStep: Number(row.last_step),
            enabledAt: DateTime.fromDateUnsafe(row.enabled_at)
          }))
        ),
        Effect.orDie
      )

    const enable: MfaRepo.MfaRepo["Service"]["enable"] = (record, hashes) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const inserted = yield* sql`
              INSERT INTO mfa_totp ${sql.insert({
                user_id: record.userId,
                secret_envelope: record.secretEnvelope,
                last_step: record.lastStep,
                enabled_at: DateTime.toDateUtc(record.enabledAt)
              })}
              ON CONFLICT (user_id) DO NOTHING
              RETURNING user_id`
            if (inserted.length === 0) return false
            yield* insertCodes(record.userId, hashes)
            return true
          })
        )
        .pipe(
          Effect.orDie,
          Effect.flatMap((done) => (done ? Effect.void : Effect.fail(new MfaRepo.MfaAlreadyEnabled())))
        )

    const disable: MfaRepo.MfaRepo["Service"]["disable"] = (userId) =>
      sql`DELETE FROM mfa_totp WHERE user_id = ${userId} RETURNING user_id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const useStep: MfaRepo.MfaRepo["Service"]["useStep"] = (userId, step) =>
      sql`
        UPDATE mfa_totp SET last_step = ${step}
        WHERE user_id = ${userId} AND last_step < ${step}
        RETURNING user_id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const unusedBackupCodes: MfaRepo.MfaRepo["Service"]["unusedBackupCodes"] = (userId) =>
      sql`SELECT id, hash FROM mfa_backup_codes WHERE user_id = ${userId} ORDER BY id`.pipe(
        Effect.flatMap(decodeCodes),
        Effect.map((rows) => rows.map((row) => ({ id: String(row.id), hash: row.hash }))),
        Effect.orDie
      )

    const useBackupCode: MfaRepo.MfaRepo["Service"]["useBackupCode"] = (userId, codeId) =>
      // A code id that is not a number cannot be one of ours; the cast would fail in SQL.
      /^\d{1,19}$/.test(codeId)
        ? sql`DELETE FROM mfa_backup_codes WHERE id = ${codeId} AND user_id = ${userId} RETURNING id`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          )
        : Effect.succeed(false)

    const replaceBackupCodes: MfaRepo.MfaRepo["Service"]["replaceBackupCodes"] = (userId, hashes) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const owner = yield* sql`SELECT user_id FROM mfa_totp WHERE user_id = ${userId} FOR UPDATE`
            if (owner.length === 0) return false
            yield* sql`DELETE FROM mfa_backup_codes WHERE user_id = ${userId}`
            yield* insertCodes(userId, hashes)
            return true
          })
        )
        .pipe(Effect.orDie)

    return MfaRepo.MfaRepo.of({ find, enable, disable, useStep, unusedBackupCodes, useBackupCode, replaceBackupCodes })
  })
)
