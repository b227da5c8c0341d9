/** Refusals of billing, named for the condition (API answers: rest's BillingRefusals). */
import { Schema } from "effect"

/** No payment provider is connected (`SERVICE_BILLING_PROVIDER=none`): 501. */
export class PaymentsNotConnected extends Schema.TaggedError<PaymentsNotConnected>()("PaymentsNotConnected", {}) {}

/** The checkout names a plan the operator does not sell (400 50035 on `plan`). */
export class UnknownPlan extends Schema.TaggedError<UnknownPlan>()("UnknownPlan", {}) {}

/** The receipt phone is not a Russian number (400 50035 on `phone`). */
export class BadPhone extends Schema.TaggedError<BadPhone>()("BadPhone", {}) {}

/**
 * The provider did not answer, answered 5xx after the retries, or refused our request (a setting
 * is wrong): the payment could not be started (502).
 */
export class ProviderUnavailable extends Schema.TaggedError<ProviderUnavailable>()("ProviderUnavailable", {
  reason: Schema.String
}) {}

/** A notification from an address outside the provider's published ranges (403). */
export class UntrustedSource extends Schema.TaggedError<UntrustedSource>()("UntrustedSource", {}) {}

/** The user has no boost slot free (409). */
export class NoFreeBoost extends Schema.TaggedError<NoFreeBoost>()("NoFreeBoost", {}) {}

/** The boost is someone else's (403 50013). */
export class NotYourBoost extends Schema.TaggedError<NotYourBoost>()("NotYourBoost", {}) {}

/** No such boost on that guild (404 0). */
export class UnknownBoost extends Schema.TaggedError<UnknownBoost>()("UnknownBoost", {}) {}

/** The caller is not a member of the guild, or the guild does not exist for them (403 50001). */
export class NotGuildMember extends Schema.TaggedError<NotGuildMember>()("NotGuildMember", {}) {}

/** The caller is not platform staff (403 50013). */
export class NotStaff extends Schema.TaggedError<NotStaff>()("NotStaff", {}) {}

/** The grant names a user who does not exist (404 10013). */
export class UnknownUser extends Schema.TaggedError<UnknownUser>()("UnknownUser", {}) {}
