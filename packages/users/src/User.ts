/**
 * A user account as the system of record holds it. The auth and profile work extends this record;
 * wire shapes (CurrentUser, public User) are derived from it, never stored.
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

export const User = Schema.Struct({
  id: Snowflake.Snowflake,
  /** 2–32 of a-z 0-9 _ . ; unique regardless of letter case. */
  username: Schema.String,
  /** null shows the username instead. */
  displayName: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  /**
   * An application's bot user (set when the applications domain creates it). Absent on records read
   * where it does not matter (an account's own snapshot): absent means a person.
   */
  bot: Schema.optionalKey(Schema.Boolean)
})
export type User = typeof User.Type
