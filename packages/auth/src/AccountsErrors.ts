/**
 * The accounts repository's conditions, as data. A taken username is `UsersErrors.UsernameTaken`
 * from @veche/users: the users table owns that rule.
 */
import { Schema } from "effect"

/**
 * Another account already has this phone. The number itself is not carried: errors end up in logs,
 * and a phone is personal data the caller already holds.
 */
export class PhoneTaken extends Schema.TaggedError<PhoneTaken>()("PhoneTaken", {}) {}

/** Another account already has this e-mail address (compared without regard to letter case). */
export class EmailTaken extends Schema.TaggedError<EmailTaken>()("EmailTaken", {}) {}
