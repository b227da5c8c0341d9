/** Refusals of the applications domain, named for the condition (API answers: rest's ApplicationsRefusals). */
import { Schema } from "effect"

/** No application with this id that the caller may see (404 10002): others' look the same as none. */
export class NoSuchApplication extends Schema.TaggedError<NoSuchApplication>()("NoSuchApplication", {}) {}

/** The application exists but the caller does not own it, where the spec answers 403 (secret reset). */
export class NotApplicationOwner extends Schema.TaggedError<NotApplicationOwner>()("NotApplicationOwner", {}) {}

/** The owner already has the most applications allowed (400 30032). */
export class ApplicationLimitReached extends Schema.TaggedError<ApplicationLimitReached>()(
  "ApplicationLimitReached",
  {}
) {}

/** The setting requires two-factor authentication to create applications and the user has none (403 60003). */
export class MfaRequired extends Schema.TaggedError<MfaRequired>()("MfaRequired", {}) {}
