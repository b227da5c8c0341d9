/**
 * A relationship between two users, as the mirrored platform numbers them: 1 friend, 2 blocked,
 * 3 incoming friend request, 4 outgoing friend request. Each side keeps its own row (a friendship
 * is two rows; a request is an outgoing row on one side and an incoming row on the other).
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

export const Type = Schema.Literals([1, 2, 3, 4])
export type Type = typeof Type.Type

export const FRIEND: Type = 1
export const BLOCKED: Type = 2
export const INCOMING: Type = 3
export const OUTGOING: Type = 4

export const Relationship = Schema.Struct({
  userId: Snowflake.Snowflake,
  otherId: Snowflake.Snowflake,
  type: Type,
  /** The user's own name for the other, if any. */
  nickname: Schema.NullOr(Schema.String),
  since: Schema.DateTimeUtc
})
export type Relationship = typeof Relationship.Type
