/**
 * An account's deletion request: asked for with the password, carried out 14 days later unless
 * cancelled before. The record outlives the account's personal data, so that the state can still be
 * told (and a restart in between loses nothing: the due requests are read back from the store).
 */
import { Snowflake } from "@veche/platform"
import { Duration, Schema } from "effect"

export const DELAY = Duration.days(14)

export const State = Schema.Literals(["pending", "cancelled", "completed"])
export type State = typeof State.Type

export const Deletion = Schema.Struct({
  userId: Snowflake.Snowflake,
  state: State,
  requestedAt: Schema.DateTimeUtc,
  /** When the account is deleted (pending), or was to be (cancelled), or was (completed). */
  deleteAt: Schema.DateTimeUtc
})
export type Deletion = typeof Deletion.Type
