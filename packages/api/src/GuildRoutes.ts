/**
 * What every guild-scoped route shares: the `{guild_id}` path parameter and the error sets of a
 * route inside a guild. Pure data.
 */
import { MissingAccess, MissingPermissions, UnknownGuild } from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"

export const GuildParams = { guild_id: Snowflake.Snowflake }

/** The guild does not exist, or the caller is not in it. */
export const inGuild = [UnknownGuild, MissingAccess] as const
/** … and the caller needs a permission there. */
export const managing = [...inGuild, MissingPermissions] as const
