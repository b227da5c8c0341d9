/**
 * What a user shows of themselves beyond the name (bio, avatar and banner hashes) and their own
 * settings (presence status, custom status, theme, locale, server order). Kept apart from the user
 * record, which registration creates; a user without a stored profile has the defaults.
 */
import { Schema } from "effect"

export const Status = Schema.Literals(["online", "idle", "dnd", "invisible"])
export type Status = typeof Status.Type

export const CustomStatus = Schema.Struct({ text: Schema.String })
export type CustomStatus = typeof CustomStatus.Type

export const Profile = Schema.Struct({
  bio: Schema.NullOr(Schema.String),
  /** The avatar's content hash (`a_…` when animated); null for none. */
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  status: Status,
  customStatus: Schema.NullOr(CustomStatus),
  theme: Schema.String,
  locale: Schema.String,
  /** The user's own order of servers (ids); servers missing here follow in join order. */
  guildOrder: Schema.Array(Schema.String)
})
export type Profile = typeof Profile.Type

export const DEFAULT: Profile = {
  bio: null,
  avatar: null,
  banner: null,
  status: "online",
  customStatus: null,
  theme: "dark",
  locale: "ru",
  guildOrder: []
}

/** Fields a change may set; absent (or undefined) fields stay as they are. */
export type ProfileChange = { readonly [K in keyof Profile]?: Profile[K] | undefined }

/** The profile after a change: given fields replace, absent or undefined ones stay. */
export const apply = (profile: Profile, change: ProfileChange): Profile => {
  const defined = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined))
  return { ...profile, ...(defined as Partial<Profile>) }
}
