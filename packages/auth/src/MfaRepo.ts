/**
 * The port to two-factor state (a user's TOTP secret, sealed, with the last time step used, and
 * their backup codes, hashed), and its in-memory adapter.
 *
 * Every change is one atomic step of the store: a time step or a backup code is used by a
 * conditional change, so two concurrent logins with the same code cannot both pass; enabling
 * stores the secret and the first set of codes together; a new set replaces the old in one step.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, Effect, Layer, Option, Ref, Schema } from "effect"

export interface TotpRecord {
  readonly userId: Snowflake.Snowflake
  /** The base32 secret sealed by SecretBox (associated data: the user id); never the secret itself. */
  readonly secretEnvelope: string
  /** The latest time step accepted; codes of this step and earlier are refused (replay). */
  readonly lastStep: number
  readonly enabledAt: DateTime.Utc
}

export interface StoredBackupCode {
  readonly id: string
  /** `salt$digest` from BackupCodes.hash. */
  readonly hash: string
}

/** TOTP is already on for this user: turn it off first. */
export class MfaAlreadyEnabled extends Schema.TaggedError<MfaAlreadyEnabled>()("MfaAlreadyEnabled", {}) {}

export class MfaRepo extends Context.Service<
  MfaRepo,
  {
    readonly find: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<TotpRecord>>
    /** Turns TOTP on with its first set of backup codes, both or neither. */
    readonly enable: (
      record: TotpRecord,
      backupCodeHashes: ReadonlyArray<string>
    ) => Effect.Effect<void, MfaAlreadyEnabled>
    /** Turns TOTP off and deletes every backup code; false when it was off. */
    readonly disable: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /** Records `step` as used if TOTP is on and `step` is later than the last used one; else false. */
    readonly useStep: (userId: Snowflake.Snowflake, step: number) => Effect.Effect<boolean>
    readonly unusedBackupCodes: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<StoredBackupCode>>
    /** Marks one code used; true only for the call that used it. */
    readonly useBackupCode: (userId: Snowflake.Snowflake, codeId: string) => Effect.Effect<boolean>
    /** Replaces the whole set (old codes stop working); false, changing nothing, when TOTP is off. */
    readonly replaceBackupCodes: (
      userId: Snowflake.Snowflake,
      backupCodeHashes: ReadonlyArray<string>
    ) => Effect.Effect<boolean>
  }
>()("@veche/auth/MfaRepo") {
  static readonly layerMemory: Layer.Layer<MfaRepo> = Layer.effect(MfaRepo, Effect.suspend(makeMemory))
}

interface UserState {
  readonly totp: TotpRecord
  /** Unused codes only: a used code is removed. */
  readonly codes: ReadonlyArray<StoredBackupCode>
}

function makeMemory() {
  return Effect.gen(function* () {
    const state = yield* Ref.make<ReadonlyMap<string, UserState>>(new Map())
    let nextCodeId = 0
    const codesOf = (hashes: ReadonlyArray<string>): ReadonlyArray<StoredBackupCode> =>
      hashes.map((hash) => ({ id: String(++nextCodeId), hash }))

    const change = <A>(userId: string, f: (current: UserState | undefined) => readonly [A, UserState | undefined]) =>
      Ref.modify(state, (all): [A, ReadonlyMap<string, UserState>] => {
        const [answer, next] = f(all.get(userId))
        const updated = new Map(all)
        if (next === undefined) updated.delete(userId)
        else updated.set(userId, next)
        return [answer, updated]
      })

    return MfaRepo.of({
      find: (userId) => Effect.map(Ref.get(state), (all) => Option.fromNullishOr(all.get(userId)?.totp)),
      enable: (record, hashes) =>
        Effect.flatten(
          change<Effect.Effect<void, MfaAlreadyEnabled>>(record.userId, (current) =>
            current === undefined
              ? [Effect.void, { totp: record, codes: codesOf(hashes) }]
              : [Effect.fail(new MfaAlreadyEnabled()), current]
          )
        ),
      disable: (userId) => change(userId, (current) => [current !== undefined, undefined]),
      useStep: (userId, step) =>
        change(userId, (current) =>
          current === undefined || step <= current.totp.lastStep
            ? [false, current]
            : [true, { ...current, totp: { ...current.totp, lastStep: step } }]
        ),
      unusedBackupCodes: (userId) => Effect.map(Ref.get(state), (all) => all.get(userId)?.codes ?? []),
      useBackupCode: (userId, codeId) =>
        change(userId, (current) =>
          current === undefined || !current.codes.some((code) => code.id === codeId)
            ? [false, current]
            : [true, { ...current, codes: current.codes.filter((code) => code.id !== codeId) }]
        ),
      replaceBackupCodes: (userId, hashes) =>
        change(userId, (current) =>
          current === undefined ? [false, current] : [true, { ...current, codes: codesOf(hashes) }]
        )
    })
  })
}
