/** The users domain's conditions, as data (no HTTP here: rest's UsersRefusals tells what each answers). */
import { Schema } from "effect"

/** Another account already holds this username (compared without regard to letter case). */
export class UsernameTaken extends Schema.TaggedError<UsernameTaken>()("UsernameTaken", {
  username: Schema.String
}) {}

/** Another account already has this id. */
export class UserIdTaken extends Schema.TaggedError<UserIdTaken>()("UserIdTaken", {
  id: Schema.String
}) {}

/** No user has this id (never had, or the account is gone while a token for it was still valid). */
export class NoSuchUser extends Schema.TaggedError<NoSuchUser>()("NoSuchUser", {}) {}

/** A banner from an account without Plus (the mirrored platform keeps banners for its paid plan). */
export class BannerRequiresPlus extends Schema.TaggedError<BannerRequiresPlus>()("BannerRequiresPlus", {}) {}

/** An uploaded image was refused (format, size, dimensions): `code` and `message` say why, on `field`. */
export class ImageRefused extends Schema.TaggedError<ImageRefused>()("ImageRefused", {
  field: Schema.String,
  code: Schema.String,
  message: Schema.String
}) {}

/** The host connected no image storage: profile images cannot be set at all. */
export class ImageStorageNotConnected extends Schema.TaggedError<ImageStorageNotConnected>()(
  "ImageStorageNotConnected",
  {}
) {}

/** The image storage is connected but failed; nothing was changed. */
export class ImageStorageUnavailable extends Schema.TaggedError<ImageStorageUnavailable>()(
  "ImageStorageUnavailable",
  {}
) {}
