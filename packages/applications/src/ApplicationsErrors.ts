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

/** An uploaded icon was refused (format, size, dimensions): `code` and `message` say why (400 50035 on `icon`). */
export class IconRefused extends Schema.TaggedError<IconRefused>()("IconRefused", {
  code: Schema.String,
  message: Schema.String
}) {}

/** The host connected no image storage: icons cannot be set at all (501). */
export class IconStorageNotConnected extends Schema.TaggedError<IconStorageNotConnected>()(
  "IconStorageNotConnected",
  {}
) {}

/** The image storage is connected but failed; nothing was changed (503). */
export class IconStorageUnavailable extends Schema.TaggedError<IconStorageUnavailable>()(
  "IconStorageUnavailable",
  {}
) {}
