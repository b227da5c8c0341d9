/**
 * The password hashing port: what registration, login, recovery and the password checks need from
 * a hasher. The implementation (argon2id through a native module: parameters, concurrency bound,
 * dummy hash, rehash detection) lives in the `@veche/argon2` adapter; hosts choose it.
 *
 * Rules every implementation keeps:
 * - Passwords are hashed exactly as typed: no trimming, no Unicode normalisation. The UTF-8 bytes
 *   are capped at 1 KiB (`encode`) so a huge input cannot make the hasher do unbounded work; the
 *   API's own 8–128 character rule is checked earlier, by the request schema.
 * - `verify` also says whether the stored hash was made with other parameters than the current
 *   ones, so the login flow can rehash while it holds the plain password.
 * - `verifyDummy` gives an unknown account the same cost as a wrong password (security.md: unknown
 *   phone and wrong password answer in comparable time).
 * - A stored hash the hasher cannot read is a defect (`MalformedPasswordHash`), never a wrong password.
 */
import { Context, Effect, Redacted, Schema } from "effect"

/** The longest password accepted, in UTF-8 bytes. */
export const MAX_PASSWORD_BYTES = 1_024

/** The password is longer than `maxBytes` UTF-8 bytes; it was neither hashed nor compared. */
export class PasswordTooLong extends Schema.TaggedError<PasswordTooLong>()("PasswordTooLong", {
  maxBytes: Schema.Number
}) {}

/**
 * A stored password hash is not one the hasher can read. Our hashes always are, so this means
 * corrupted data: it is raised as a defect (a 500), never as a wrong password.
 */
export class MalformedPasswordHash extends Schema.TaggedError<MalformedPasswordHash>()("MalformedPasswordHash", {}) {}

export interface VerifyResult {
  readonly valid: boolean
  /**
   * The password is right and the stored hash was made with other parameters (or another
   * algorithm or version) than the current ones: store a fresh `hash` of it. Always false when the
   * password is wrong, since the caller cannot rehash without the right password.
   */
  readonly needsRehash: boolean
}

/**
 * The bytes a password is hashed from: its UTF-8 encoding as typed, refused above
 * `MAX_PASSWORD_BYTES`. Measuring and hashing one encoding makes the cap apply to exactly what is hashed.
 */
export const encode = (password: Redacted.Redacted<string>): Effect.Effect<Uint8Array, PasswordTooLong> => {
  const bytes = new TextEncoder().encode(Redacted.value(password))
  return bytes.length > MAX_PASSWORD_BYTES
    ? Effect.fail(new PasswordTooLong({ maxBytes: MAX_PASSWORD_BYTES }))
    : Effect.succeed(bytes)
}

export class PasswordHasher extends Context.Service<
  PasswordHasher,
  {
    /** A PHC string (e.g. `$argon2id$v=19$m=…,t=…,p=…$salt$hash`) of the password, with a fresh salt. */
    readonly hash: (password: Redacted.Redacted<string>) => Effect.Effect<string, PasswordTooLong>
    /** Checks a password against a stored PHC string. */
    readonly verify: (phc: string, password: Redacted.Redacted<string>) => Effect.Effect<VerifyResult, PasswordTooLong>
    /**
     * Does the work of a `verify` against a fixed hash made when the layer was built, and answers
     * invalid. Call it when the account does not exist, so that case costs what a wrong password costs.
     */
    readonly verifyDummy: (password: Redacted.Redacted<string>) => Effect.Effect<VerifyResult, PasswordTooLong>
  }
>()("@veche/auth/PasswordHasher") {}
