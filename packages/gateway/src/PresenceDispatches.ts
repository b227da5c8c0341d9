/**
 * PRESENCE_UPDATE as the gateway's presence publishes it, and the presence object READY and
 * GUILD_CREATE carry: the platform's v10 shape. Others see an invisible user as offline, and a
 * custom status is an activity of type 4 (`{type: 4, name: "Custom Status", state, emoji}`). To a
 * guild the dispatch names it (`guild_id`: discord.js files the presence under that guild); to
 * friends it names none. `PresenceDispatch` joins `Dispatch.Dispatch` through platform's registry.
 */
import { type Dispatch, Snowflake } from "@veche/platform"
import { Option, Schema } from "effect"
import type { Entry } from "./PresenceStore.ts"

export const ShownStatus = Schema.Literals(["online", "idle", "dnd", "offline"])
export type ShownStatus = typeof ShownStatus.Type

export const Activity = Schema.Struct({
  type: Schema.Int,
  name: Schema.String,
  state: Schema.optionalKey(Schema.NullOr(Schema.String)),
  url: Schema.optionalKey(Schema.NullOr(Schema.String)),
  emoji: Schema.optionalKey(Schema.NullOr(Schema.Struct({ name: Schema.String })))
})

export const Presence = Schema.Struct({
  user: Schema.Struct({ id: Snowflake.Snowflake }),
  guild_id: Schema.optionalKey(Snowflake.Snowflake),
  status: ShownStatus,
  activities: Schema.Array(Activity),
  /** The platform says per client kind; every session here counts as `web`. */
  client_status: Schema.Struct({ web: Schema.optionalKey(ShownStatus) })
})
export type Presence = typeof Presence.Type

/** What others see of a presence: offline when absent or invisible, and then no activities. */
export interface Shown {
  readonly status: ShownStatus
  readonly activities: ReadonlyArray<typeof Activity.Type>
}

export const OFFLINE: Shown = { status: "offline", activities: [] }

export const shown = (entry: Option.Option<Entry>): Shown =>
  Option.match(entry, {
    onNone: () => OFFLINE,
    onSome: (found) => (found.status === "invisible" ? OFFLINE : { status: found.status, activities: found.activities })
  })

export const sameShown = (a: Shown, b: Shown): boolean =>
  a.status === b.status && JSON.stringify(a.activities) === JSON.stringify(b.activities)

/** The wire object for a user, for one guild or (no `guildId`) for friends and READY. */
export const presence = (userId: Snowflake.Snowflake, view: Shown, guildId?: Snowflake.Snowflake): Presence => ({
  user: { id: userId },
  ...(guildId === undefined ? {} : { guild_id: guildId }),
  status: view.status,
  activities: view.activities,
  client_status: view.status === "offline" ? {} : { web: view.status }
})

/** A custom status (the user's settings) as others see it. */
export const customStatus = (text: string): typeof Activity.Type => ({
  type: 4,
  name: "Custom Status",
  state: text,
  emoji: null
})

export const schemas = { PRESENCE_UPDATE: Presence } satisfies Dispatch.Schemas

export type PresenceDispatch = Dispatch.FromSchemas<typeof schemas>

declare module "@veche/platform" {
  namespace Dispatch {
    interface Registry {
      readonly presence: PresenceDispatch
    }
  }
}
