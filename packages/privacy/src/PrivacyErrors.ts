/** The privacy domain's refusals (the API answers are `rest`'s PrivacyRefusals table). */
import { Schema } from "effect"

/** The user owns servers with other members (deletion waits: transfer or dissolve them first). */
export class OwnsGuilds extends Schema.TaggedError<OwnsGuilds>()("OwnsGuilds", {}) {}

/** The user already has an export being prepared. */
export class ExportInProgress extends Schema.TaggedError<ExportInProgress>()("ExportInProgress", {}) {}
