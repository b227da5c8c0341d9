/** Why a guild change was refused, as data. */
import { Schema } from "effect"

/** The user is in the maximum number of guilds already (400 30001). */
export class GuildLimitReached extends Schema.TaggedError<GuildLimitReached>()("GuildLimitReached", {}) {}
