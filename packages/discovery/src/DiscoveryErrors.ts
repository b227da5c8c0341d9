/** Refusals of the catalogue, named for the condition (API answers: rest's DiscoveryRefusals). */
import { Schema } from "effect"
import type { Unmet } from "./Requirements.ts"

/** No such guild, or not in the catalogue where only listed guilds are visible (404 10004). */
export class NotInCatalogue extends Schema.TaggedError<NotInCatalogue>()("NotInCatalogue", {}) {}

/** The caller does not own the guild (403 50001); a guild unknown to them reads as NotInCatalogue. */
export class NotGuildOwner extends Schema.TaggedError<NotGuildOwner>()("NotGuildOwner", {}) {}

/** The owner already has three public servers (409). */
export class PublicLimitReached extends Schema.TaggedError<PublicLimitReached>()("PublicLimitReached", {}) {}

/** Publication conditions the guild does not meet (400 50035, one entry per condition). */
export class ConditionsUnmet extends Schema.TaggedError<ConditionsUnmet>()("ConditionsUnmet", {
  unmet: Schema.Array(Schema.Struct({ condition: Schema.String, message: Schema.String }))
}) {
  static of(unmet: ReadonlyArray<Unmet>): ConditionsUnmet {
    return new ConditionsUnmet({ unmet: unmet.map(({ condition, message }) => ({ condition, message })) })
  }
}

/** The invitation path's checks refused the join (restriction 20025, ban 40007, verification 40002, cap 30001). */
export class JoinRefused extends Schema.TaggedError<JoinRefused>()("JoinRefused", {
  reason: Schema.Literals(["banned", "restricted", "verification", "guild_limit"])
}) {}

/** The card names a category the catalogue does not have (400 50035 on `category`). */
export class UnknownCategory extends Schema.TaggedError<UnknownCategory>()("UnknownCategory", {}) {}

/** The caller is not platform staff (403 50013, as the other staff routes answer). */
export class NotStaff extends Schema.TaggedError<NotStaff>()("NotStaff", {}) {}
