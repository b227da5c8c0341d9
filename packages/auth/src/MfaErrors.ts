/** Why a two-factor step was refused, as data. */
import { Schema } from "effect"

/** Login: the password was right, 2FA is on and no code came (401 60003, `mfa: true`). */
export class MfaRequired extends Schema.TaggedError<MfaRequired>()("MfaRequired", {}) {}

/** The app or backup code is wrong, malformed or already used (401 60008). */
export class MfaCodeInvalid extends Schema.TaggedError<MfaCodeInvalid>()("MfaCodeInvalid", {}) {}

/** The operation needs TOTP on and it is off (400 60002). */
export class MfaNotEnabled extends Schema.TaggedError<MfaNotEnabled>()("MfaNotEnabled", {}) {}

/** The secret is not base32 of 16–128 characters (400 50035 on `secret`). */
export class MfaSecretInvalid extends Schema.TaggedError<MfaSecretInvalid>()("MfaSecretInvalid", {}) {}

/** A signed-in route re-checked the password and it was wrong (400 50035 on `password`). */
export class PasswordMismatch extends Schema.TaggedError<PasswordMismatch>()("PasswordMismatch", {}) {}
