/**
 * A user as everybody sees them, in the mirrored platform's user-object shape: the wire schema and
 * the one function that builds it, shared by the users routes and every object that embeds a user
 * (members, bans, invites).
 */
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import type { Profile } from "./Profile.ts"
import type { User } from "./User.ts"

export const PublicUser = Schema.Struct({
  id: Snowflake.Snowflake,
  username: Schema.String,
  /** Always "0": the platform retired discriminators; libraries still read the field. */
  discriminator: Schema.Literal("0"),
  global_name: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  accent_color: Schema.Null,
  avatar_decoration_data: Schema.Null,
  public_flags: Schema.Int,
  bot: Schema.Boolean
})
export type PublicUser = typeof PublicUser.Type

export const view = (user: User, profile: Profile, bot: boolean): PublicUser => ({
  id: user.id,
  username: user.username,
  discriminator: "0",
  global_name: user.displayName,
  avatar: profile.avatar,
  banner: profile.banner,
  accent_color: null,
  avatar_decoration_data: null,
  public_flags: 0,
  bot
})

/**
 * The name an erased account keeps: unique (its id) and outside what registration accepts. Its row
 * stays for what refers to it (messages, memberships), with nothing else of the person left.
 */
export const anonymousName = (id: Snowflake.Snowflake): string => `${ANONYMOUS_PREFIX}${id}`

/**
 * What every erased account's name begins with, so no registration may take it: a living
 * `deleted_user_<id>` (exactly 32 characters with a 19-digit id) would make that account's erasure
 * fail on the unique name, and pass as erased.
 */
export const ANONYMOUS_PREFIX = "deleted_user_"

/** Whether the account behind a public view was erased (it can never act again). */
export const isErased = (user: PublicUser): boolean => user.username === anonymousName(user.id)
