/**
 * AccountsRepo on PostgreSQL (tables `users`, migration 0001, and `credentials`, migration 0004).
 *
 * Registration inserts both rows in one transaction, so a refused one leaves neither. Uniqueness of
 * username, phone and e-mail is settled by the unique indexes: of concurrent registrations the
 * later inserts wait on the first one's index entry and fail once it commits, never by a check in JS.
 */
import { Account, AccountsErrors, AccountsRepo, Phone } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { UsersErrors } from "@veche/users"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { BlockColumns, SELECT_BLOCK, toBlock } from "./BlockRow.ts"

const AccountRow = Schema.Struct({
  id: Schema.BigInt,
  username: Schema.String,
  display_name: Schema.NullOr(Schema.String),
  user_created_at: Schema.Date,
  // A stored phone that is somehow not canonical fails decoding loudly rather than being served.
  phone: Schema.NullOr(Phone.Normalised),
  email: Schema.NullOr(Schema.String),
  email_verified: Schema.Boolean,
  password_hash: Schema.String,
  date_of_birth: Account.CalendarDate,
  created_at: Schema.Date,
  password_changed_at: Schema.NullOr(Schema.Date)
})
const ChangedRow = Schema.Struct({ password_changed_at: Schema.Date })

/** The account with its block and TOTP record (login's lookup): LEFT JOINs on their primary keys. */
const LoginRow = Schema.Struct({
  ...AccountRow.fields,
  ...BlockColumns,
  totp_secret_envelope: Schema.NullOr(Schema.String),
  totp_last_step: Schema.NullOr(Schema.BigInt),
  totp_enabled_at: Schema.NullOr(Schema.Date)
})

const toLoginAccount = (row: typeof LoginRow.Type): AccountsRepo.LoginAccount => {
  const account = toAccount(row)
  const userId = account.user.id
  return {
    ...account,
    loginState: {
      block: Option.fromNullishOr(toBlock(row.id, row)),
      totp:
        row.totp_secret_envelope === null || row.totp_last_step === null || row.totp_enabled_at === null
          ? Option.none()
          : Option.some({
              userId,
              secretEnvelope: row.totp_secret_envelope,
              lastStep: Number(row.totp_last_step),
              enabledAt: DateTime.fromDateUnsafe(row.totp_enabled_at)
            })
    }
  }
}

const toAccount = (row: typeof AccountRow.Type): Account.Account => {
  const id = Snowflake.Snowflake.make(String(row.id))
  return {
    user: {
      id,
      username: row.username,
      displayName: row.display_name,
      createdAt: DateTime.fromDateUnsafe(row.user_created_at)
    },
    credentials: {
      userId: id,
      phone: row.phone,
      email: row.email,
      emailVerified: row.email_verified,
      passwordHash: row.password_hash,
      dateOfBirth: row.date_of_birth,
      createdAt: DateTime.fromDateUnsafe(row.created_at),
      passwordChangedAt: row.password_changed_at === null ? null : DateTime.fromDateUnsafe(row.password_changed_at)
    }
  }
}

type RegisterError = UsersErrors.UsernameTaken | AccountsErrors.PhoneTaken | AccountsErrors.EmailTaken

export const layer: Layer.Layer<AccountsRepo.AccountsRepo, never, SqlClient.SqlClient> = Layer.effect(
  AccountsRepo.AccountsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    // to_char, not the driver's DATE parsing: that builds a Date at local midnight, which can land
    // on the day before once turned into UTC; the birthday is a calendar date, kept as text.
    const select = sql`
      SELECT u.id, u.username, u.display_name, u.created_at AS user_created_at,
             c.phone, c.email, c.email_verified, c.password_hash,
             to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.created_at, c.password_changed_at
      FROM credentials c JOIN users u ON u.id = c.user_id`

    // Login's lookup: the same account plus what login decides after the password (its block, its
    // TOTP record), so a login runs two statements (this and the session's insert), not four.
    const selectForLogin = sql`
      SELECT u.id, u.username, u.display_name, u.created_at AS user_created_at,
             c.phone, c.email, c.email_verified, c.password_hash,
             to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.created_at, c.password_changed_at,
             ${sql.unsafe(SELECT_BLOCK)},
             t.secret_envelope AS totp_secret_envelope, t.last_step AS totp_last_step, t.enabled_at AS totp_enabled_at
      FROM credentials c JOIN users u ON u.id = c.user_id
      LEFT JOIN account_blocks b ON b.user_id = c.user_id
      LEFT JOIN mfa_totp t ON t.user_id = c.user_id`
    const findByPhoneForLogin = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: LoginRow,
      execute: (phone) => sql`${selectForLogin} WHERE c.phone = ${phone}`
    })
    const findByEmailForLogin = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: LoginRow,
      execute: (email) => sql`${selectForLogin} WHERE lower(c.email) = lower(${email})`
    })
    const foundForLogin = <E>(query: Effect.Effect<Option.Option<typeof LoginRow.Type>, E>) =>
      query.pipe(Effect.map(Option.map(toLoginAccount)), Effect.orDie)

    const findByPhone = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: AccountRow,
      execute: (phone) => sql`${select} WHERE c.phone = ${phone}`
    })
    const findByEmail = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: AccountRow,
      // lower(email) on both sides: the expression of the unique index, so it is used.
      execute: (email) => sql`${select} WHERE lower(c.email) = lower(${email})`
    })
    const findByUserId = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: AccountRow,
      execute: (userId) => sql`${select} WHERE c.user_id = ${userId}`
    })

    // SQL and decoding failures are infrastructure faults: defects, answered 500 at the edge.
    const found = <E>(query: Effect.Effect<Option.Option<typeof AccountRow.Type>, E>) =>
      query.pipe(Effect.map(Option.map(toAccount)), Effect.orDie)

    const register: AccountsRepo.AccountsRepo["Service"]["register"] = ({ user, credentials }) =>
      sql
        .withTransaction(
          Effect.andThen(
            sql`INSERT INTO users ${sql.insert({
              id: user.id,
              username: user.username,
              display_name: user.displayName,
              created_at: DateTime.toDateUtc(user.createdAt)
            })}`,
            sql`INSERT INTO credentials ${sql.insert({
              user_id: user.id,
              phone: credentials.phone,
              email: credentials.email,
              email_verified: credentials.emailVerified,
              password_hash: credentials.passwordHash,
              date_of_birth: credentials.dateOfBirth,
              created_at: DateTime.toDateUtc(credentials.createdAt),
              password_changed_at:
                credentials.passwordChangedAt === null ? null : DateTime.toDateUtc(credentials.passwordChangedAt)
            })}`
          )
        )
        .pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", (reason): Effect.Effect<never, RegisterError> => {
            // Constraint names from migrations 0001 and 0004. Anything else is the primary key: a
            // Snowflake collision, which is a bug, not a condition the caller can act on.
            if (reason.constraint.includes("username")) {
              return Effect.fail(new UsersErrors.UsernameTaken({ username: user.username }))
            }
            if (reason.constraint.includes("phone")) return Effect.fail(new AccountsErrors.PhoneTaken())
            if (reason.constraint.includes("email")) return Effect.fail(new AccountsErrors.EmailTaken())
            return Effect.die(reason)
          }),
          Effect.catchTag("SqlError", Effect.die)
        )

    return AccountsRepo.AccountsRepo.of({
      register,
      findByPhone: (phone, options) =>
        options?.withLoginState === true ? foundForLogin(findByPhoneForLogin(phone)) : found(findByPhone(phone)),
      findByEmail: (email, options) =>
        options?.withLoginState === true ? foundForLogin(findByEmailForLogin(email)) : found(findByEmail(email)),
      findByUserId: (userId) => found(findByUserId(userId)),
      // One statement: the new hash and its moment change together, and never move back in time
      // (GREATEST with a millisecond past the previous change: node clocks differ).
      changePassword: (userId, passwordHash, now) =>
        sql`UPDATE credentials SET password_hash = ${passwordHash},
              password_changed_at = GREATEST(${DateTime.toDateUtc(now)}::timestamptz,
                                             password_changed_at + interval '1 millisecond')
            WHERE user_id = ${userId}
            RETURNING password_changed_at`.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(ChangedRow))),
          Effect.map(([row]) =>
            Option.map(Option.fromNullishOr(row), (r) => DateTime.fromDateUnsafe(r.password_changed_at))
          ),
          Effect.orDie
        ),
      rehashPassword: (userId, previousHash, passwordHash) =>
        sql`UPDATE credentials SET password_hash = ${passwordHash}
            WHERE user_id = ${userId} AND password_hash = ${previousHash}`.pipe(Effect.asVoid, Effect.orDie),
      // The unique index on lower(email) settles two accounts confirming one address at once.
      bindEmail: (userId, email) =>
        sql`UPDATE credentials SET email = ${email}, email_verified = TRUE WHERE user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", () => Effect.fail(new AccountsErrors.EmailTaken())),
          Effect.catchTag("SqlError", Effect.die)
        ),
      unbindEmail: (userId) =>
        sql`UPDATE credentials SET email = NULL, email_verified = FALSE WHERE user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      erase: (userId, at) =>
        sql`UPDATE credentials SET phone = NULL, email = NULL, email_verified = FALSE,
              password_hash = ${AccountsRepo.ERASED}, password_changed_at = ${DateTime.toDateUtc(at)}
            WHERE user_id = ${userId}`.pipe(Effect.asVoid, Effect.orDie),
      setPhone: (userId, phone) =>
        sql`UPDATE credentials SET phone = ${phone} WHERE user_id = ${userId}`.pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", () => Effect.fail(new AccountsErrors.PhoneTaken())),
          Effect.catchTag("SqlError", Effect.die)
        )
    })
  })
)
