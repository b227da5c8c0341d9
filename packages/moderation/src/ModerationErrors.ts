/** Refusals of staff moderation, named for the condition (their API answers: rest's ModerationRefusals). */
import { Schema } from "effect"

/** The caller is not platform staff (403 50013). */
export class NotStaff extends Schema.TaggedError<NotStaff>()("NotStaff", {}) {}

/** No account has this id (404 10013). */
export class NoSuchUser extends Schema.TaggedError<NoSuchUser>()("NoSuchUser", {}) {}

/** Staff cannot block themselves (a mistake that would lock them out of undoing it). */
export class CannotBlockSelf extends Schema.TaggedError<CannotBlockSelf>()("CannotBlockSelf", {}) {}

/** The end of a block must lie in the future. */
export class BlockEndInPast extends Schema.TaggedError<BlockEndInPast>()("BlockEndInPast", {}) {}

/** Staff cannot restrict themselves (as with blocks: a slip, never a useful act). */
export class CannotRestrictSelf extends Schema.TaggedError<CannotRestrictSelf>()("CannotRestrictSelf", {}) {}

/** The end of a restriction must lie in the future. */
export class RestrictionEndInPast extends Schema.TaggedError<RestrictionEndInPast>()("RestrictionEndInPast", {}) {}
