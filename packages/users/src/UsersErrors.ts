/** The users repository's conditions, as data. */
import { Schema } from "effect"

/** Another account already holds this username (compared without regard to letter case). */
export class UsernameTaken extends Schema.TaggedError<UsernameTaken>()("UsernameTaken", {
  username: Schema.String
}) {}

/** Another account already has this id. */
export class UserIdTaken extends Schema.TaggedError<UserIdTaken>()("UserIdTaken", {
  id: Schema.String
}) {}
