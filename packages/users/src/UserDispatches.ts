/**
 * The gateway dispatches a user's own changes publish (from Profiles),
 * as payload schemas by dispatch name, exactly the objects published: USER_UPDATE to the user and
 * their friends, GUILD_MEMBER_UPDATE carrying only the changed user to the servers they are in,
 * USER_SETTINGS_UPDATE to the user (PRESENCE_UPDATE is the gateway's presence's). `UserDispatch` joins
 * `Dispatch.Dispatch` through platform's registry (see @veche/platform Dispatch).
 */
import { type Dispatch, Snowflake } from "@veche/platform"
import { Schema } from "effect"
import { CustomStatus, Status } from "./Profile.ts"

/** The user fields a profile edit announces. */
export const UserUpdate = Schema.Struct({
  id: Snowflake.Snowflake,
  username: Schema.String,
  global_name: Schema.NullOr(Schema.String),
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String)
})
export type UserUpdate = typeof UserUpdate.Type

/** To the servers the user is in: the member changed only as a user. */
export const MemberUserUpdate = Schema.Struct({ user: UserUpdate })
export type MemberUserUpdate = typeof MemberUserUpdate.Type

export const UserSettingsUpdate = Schema.Struct({
  status: Status,
  custom_status: Schema.NullOr(CustomStatus),
  theme: Schema.String,
  locale: Schema.String
})
export type UserSettingsUpdate = typeof UserSettingsUpdate.Type

export const schemas = {
  USER_UPDATE: UserUpdate,
  GUILD_MEMBER_UPDATE: MemberUserUpdate,
  USER_SETTINGS_UPDATE: UserSettingsUpdate
} satisfies Dispatch.Schemas

export type UserDispatch = Dispatch.FromSchemas<typeof schemas>

declare module "@veche/platform" {
  namespace Dispatch {
    interface Registry {
      readonly users: UserDispatch
    }
  }
}
