/**
 * The port to accounts (a user row plus its credentials row), and its in-memory adapter.
 *
 * Registration is all or nothing: either both rows exist afterwards or neither does. Phones,
 * e-mail addresses (case-insensitive) and usernames (case-insensitive, settled by the users domain) are
 * unique, and the store settles races on them, so of concurrent registrations of one phone, one
 * address or one username exactly one succeeds.
 */
import type { Snowflake } from "@veche/platform"
import { UserRecords, type UsersErrors } from "@veche/users"
import { Context, DateTime, Effect, Exit, Layer, Option, Ref } from "effect"
import { type Account, type Credentials, emailKey } from "./Account.ts"
import { EmailTaken, PhoneTaken } from "./AccountsErrors.ts"
import type { Block } from "./Block.ts"
import type { TotpRecord } from "./MfaRepo.ts"
import type { PhoneNumber } from "./Phone.ts"

/**
 * What a login decides after the password besides the account: its block and its TOTP record, read
 * in the account's own lookup by a store that can join them in (PostgreSQL: two statements fewer
 * per login). As of the lookup, like the password hash and `passwordChangedAt` beside them.
 */
export interface LoginState {
  /** The account's block, active or ended; none when it was never blocked. */
  readonly block: Option.Option<Block>
  /** The account's TOTP record; none when 2FA is off. */
  readonly totp: Option.Option<TotpRecord>
}

/** An account as a login reads it: `loginState` when it was asked for and the store read it. */
export interface LoginAccount extends Account {
  readonly loginState?: LoginState | undefined
}

export interface FindOptions {
  /**
   * Read the block and the TOTP record in the same lookup when the store can (then `loginState` is
   * set; otherwise the caller asks AccountBlocks and MfaRepo apart).
   */
  readonly withLoginState?: boolean | undefined
}

export class AccountsRepo extends Context.Service<
  AccountsRepo,
  {
    /**
     * Creates the user and its credentials together. The user id is a fresh Snowflake, so a
     * collision on it is a defect, not one of the errors.
     */
    readonly register: (account: Account) => Effect.Effect<void, UsersErrors.UsernameTaken | PhoneTaken | EmailTaken>
    readonly findByPhone: (phone: PhoneNumber, options?: FindOptions) => Effect.Effect<Option.Option<LoginAccount>>
    /** Without regard to letter case. */
    readonly findByEmail: (email: string, options?: FindOptions) => Effect.Effect<Option.Option<LoginAccount>>
    readonly findByUserId: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Account>>
    /**
     * A new password (recovery): replaces the PHC string and moves `passwordChangedAt` to `now`, or
     * just past the previous change if that is not earlier (two changes never share a value, so a
     * session started under the first is still told apart). Answers the new `passwordChangedAt`;
     * none for an unknown user, who is left alone.
     */
    readonly changePassword: (
      userId: Snowflake.Snowflake,
      passwordHash: string,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<DateTime.Utc>>
    /**
     * The same password hashed with new parameters (login): replaces the PHC string only while it
     * is still `previousHash`, so a login that checked the old password cannot put it back over a
     * change made meanwhile. `passwordChangedAt` stays: the password is the same.
     */
    readonly rehashPassword: (
      userId: Snowflake.Snowflake,
      previousHash: string,
      passwordHash: string
    ) => Effect.Effect<void>
    /**
     * Makes `email` the user's confirmed address (replacing any other). EmailTaken when another
     * account holds it, settled by the store's unique index; nothing happens for an unknown user.
     */
    readonly bindEmail: (userId: Snowflake.Snowflake, email: string) => Effect.Effect<void, EmailTaken>
    /** Removes the user's address (recovery by e-mail is then impossible). */
    readonly unbindEmail: (userId: Snowflake.Snowflake) => Effect.Effect<void>
    /** Makes `phone` the user's number. PhoneTaken when another account holds it (the store settles races). */
    readonly setPhone: (userId: Snowflake.Snowflake, phone: PhoneNumber) => Effect.Effect<void, PhoneTaken>
    /**
     * A deleted account's credentials: phone and e-mail released, the password replaced by a value
     * no password matches, and changed `at` (as a password change: a session a login starts with
     * what it read before the erasure is refused, though it began after the sessions were ended).
     */
    readonly erase: (userId: Snowflake.Snowflake, at: DateTime.Utc) => Effect.Effect<void>
  }
>()("@veche/auth/AccountsRepo") {
  /**
   * Credentials in memory, users in the users domain's UserRecords (over its memory repositories in
   * tests and the test host), so an account registered here is the user that GET /users/@me reads.
   */
  static readonly layerMemory: Layer.Layer<AccountsRepo, never, UserRecords.UserRecords> = Layer.effect(
    AccountsRepo,
    Effect.suspend(makeMemory)
  )
}

/** Not a PHC string: verifying any password against it fails. */
export const ERASED = "!erased"

/** `now`, or a millisecond past the previous change when the clock has not moved past it. */
const nextChange = (previous: DateTime.Utc | null, now: DateTime.Utc): DateTime.Utc =>
  previous !== null && !DateTime.isLessThan(previous, now) ? DateTime.add(previous, { milliseconds: 1 }) : now

interface State {
  /** Registered accounts' credentials, by user id. */
  readonly credentials: ReadonlyMap<string, Credentials>
  /** Registrations under way: their phone and e-mail are held, but they are not found yet. */
  readonly pending: ReadonlyMap<string, Credentials>
}

const clashes = (a: Credentials, b: Credentials): PhoneTaken | EmailTaken | undefined => {
  if (a.phone !== null && a.phone === b.phone) return new PhoneTaken()
  if (a.email !== null && b.email !== null && emailKey(a.email) === emailKey(b.email)) return new EmailTaken()
  return undefined
}

function makeMemory() {
  return Effect.gen(function* () {
    const users = yield* UserRecords.UserRecords
    const state = yield* Ref.make<State>({ credentials: new Map(), pending: new Map() })

    // Two stores cannot share a transaction, so the phone and e-mail are reserved first, in one
    // Ref.modify (check and claim are one step), and the user is inserted after; the reservation
    // is turned into the account, or released, by how the insert ended. A concurrent registration
    // of the same phone or address meets the reservation; one of the same username meets the users domain's.
    const reserve = (credentials: Credentials) =>
      Ref.modify(state, (s): [Effect.Effect<void, PhoneTaken | EmailTaken>, State] => {
        for (const other of [...s.credentials.values(), ...s.pending.values()]) {
          const clash = clashes(credentials, other)
          if (clash !== undefined) return [Effect.fail(clash), s]
        }
        return [Effect.void, { ...s, pending: new Map(s.pending).set(credentials.userId, credentials) }]
      }).pipe(Effect.flatten)

    const settle = (credentials: Credentials, exit: Exit.Exit<unknown, unknown>) =>
      Ref.update(state, (s) => {
        const pending = new Map(s.pending)
        pending.delete(credentials.userId)
        return Exit.isSuccess(exit)
          ? { pending, credentials: new Map(s.credentials).set(credentials.userId, credentials) }
          : { ...s, pending }
      })

    const register = (account: Account) =>
      // Uninterruptible between reserving and settling, so an interrupted registration cannot
      // leave its phone or e-mail held for ever.
      Effect.uninterruptibleMask((restore) =>
        Effect.andThen(
          reserve(account.credentials),
          restore(users.insert(account.user)).pipe(
            Effect.onExit((exit) => settle(account.credentials, exit)),
            Effect.catchTag("UserIdTaken", Effect.die)
          )
        )
      )

    const withUser = (credentials: Credentials | undefined) =>
      credentials === undefined
        ? Effect.succeed(Option.none<Account>())
        : Effect.map(
            users.findUser(credentials.userId),
            Option.map((user): Account => ({ user, credentials }))
          )

    const findWhere = (match: (credentials: Credentials) => boolean) =>
      Effect.flatMap(Ref.get(state), (s) => withUser([...s.credentials.values()].find(match)))

    return AccountsRepo.of({
      register,
      findByPhone: (phone) => findWhere((c) => c.phone === phone),
      findByEmail: (email) => findWhere((c) => c.email !== null && emailKey(c.email) === emailKey(email)),
      findByUserId: (userId) => Effect.flatMap(Ref.get(state), (s) => withUser(s.credentials.get(userId))),
      changePassword: (userId, passwordHash, now) =>
        Ref.modify(state, (s): [Option.Option<DateTime.Utc>, State] => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined) return [Option.none(), s]
          const passwordChangedAt = nextChange(credentials.passwordChangedAt, now)
          const changed = { ...credentials, passwordHash, passwordChangedAt }
          return [Option.some(passwordChangedAt), { ...s, credentials: new Map(s.credentials).set(userId, changed) }]
        }),
      rehashPassword: (userId, previousHash, passwordHash) =>
        Ref.update(state, (s) => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined || credentials.passwordHash !== previousHash) return s
          return { ...s, credentials: new Map(s.credentials).set(userId, { ...credentials, passwordHash }) }
        }),
      bindEmail: (userId, email) =>
        Ref.modify(state, (s): [Effect.Effect<void, EmailTaken>, State] => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined) return [Effect.void, s]
          const holders = [...s.credentials.values(), ...s.pending.values()]
          if (holders.some((c) => c.userId !== userId && c.email !== null && emailKey(c.email) === emailKey(email))) {
            return [Effect.fail(new EmailTaken()), s]
          }
          const bound = { ...credentials, email, emailVerified: true }
          return [Effect.void, { ...s, credentials: new Map(s.credentials).set(userId, bound) }]
        }).pipe(Effect.flatten),
      unbindEmail: (userId) =>
        Ref.update(state, (s) => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined) return s
          const unbound = { ...credentials, email: null, emailVerified: false }
          return { ...s, credentials: new Map(s.credentials).set(userId, unbound) }
        }),
      erase: (userId, at) =>
        Ref.update(state, (s) => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined) return s
          const erased = {
            ...credentials,
            phone: null,
            email: null,
            emailVerified: false,
            passwordHash: ERASED,
            passwordChangedAt: at
          }
          return { ...s, credentials: new Map(s.credentials).set(userId, erased) }
        }),
      setPhone: (userId, phone) =>
        Ref.modify(state, (s): [Effect.Effect<void, PhoneTaken>, State] => {
          const credentials = s.credentials.get(userId)
          if (credentials === undefined) return [Effect.void, s]
          const holders = [...s.credentials.values(), ...s.pending.values()]
          if (holders.some((c) => c.userId !== userId && c.phone === phone)) return [Effect.fail(new PhoneTaken()), s]
          return [Effect.void, { ...s, credentials: new Map(s.credentials).set(userId, { ...credentials, phone }) }]
        }).pipe(Effect.flatten)
    })
  })
}
