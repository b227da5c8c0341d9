/** Refusals of the messages domain, named for the condition (API answers: rest's MessagesRefusals). */
import { Schema } from "effect"

/** No such channel (10003). */
export class NoSuchChannel extends Schema.TaggedError<NoSuchChannel>()("NoSuchChannel", {}) {}

/** Not a member of the channel's guild, or cannot see the channel (50001). */
export class NoAccess extends Schema.TaggedError<NoAccess>()("NoAccess", {}) {}

/** A permission the action needs in the channel (50013); `needed` names it for the log. */
export class MissingPermission extends Schema.TaggedError<MissingPermission>()("MissingPermission", {
  needed: Schema.String
}) {}

/** Messages live in text channels only (50024). */
export class NotTextChannel extends Schema.TaggedError<NotTextChannel>()("NotTextChannel", {}) {}

/** No such message in this channel (10008). */
export class NoSuchMessage extends Schema.TaggedError<NoSuchMessage>()("NoSuchMessage", {}) {}

/** Neither content nor an embed (50006). */
export class EmptyMessage extends Schema.TaggedError<EmptyMessage>()("EmptyMessage", {}) {}

/** Only the author edits a message (50005). */
export class NotAuthor extends Schema.TaggedError<NotAuthor>()("NotAuthor", {}) {}

/** The channel's slow mode: the author may post again after `retryAfterMs` (429 20016). */
export class SlowmodeActive extends Schema.TaggedError<SlowmodeActive>()("SlowmodeActive", {
  retryAfterMs: Schema.Number
}) {}

/** An age-restricted (nsfw) channel and the user is under 18 by date of birth (20024). */
export class AgeRestricted extends Schema.TaggedError<AgeRestricted>()("AgeRestricted", {}) {}

/** The guild's verification level asks more of the account than it has (40002). */
export class VerificationRequired extends Schema.TaggedError<VerificationRequired>()("VerificationRequired", {
  level: Schema.Int
}) {}

/** The channel already has the most pins allowed (30003). */
export class PinLimitReached extends Schema.TaggedError<PinLimitReached>()("PinLimitReached", {}) {}

/** The reply names a message not in this channel (400 50035 on message_reference.message_id). */
export class NoSuchReference extends Schema.TaggedError<NoSuchReference>()("NoSuchReference", {}) {}

/** The content is longer than the author may write (2000, or 4000 with Plus): 400 50035 on `content`. */
export class ContentTooLong extends Schema.TaggedError<ContentTooLong>()("ContentTooLong", { max: Schema.Number }) {}
