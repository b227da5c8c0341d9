/**
 * A guild's entry in the catalogue as the system of record holds it. One row per guild that was
 * ever published: the slug given at the first publication stays with the guild for good (links to
 * it keep working), and unpublishing keeps the row as `not_listed`.
 *
 * States: `listed` (shown), `auto_hidden` (hidden by the reports rule, or by staff), `removed`
 * (taken out by staff; the owner cannot publish again until staff list it), `not_listed` (the
 * owner unpublished, or never published: no row).
 */
import type { Snowflake } from "@veche/platform"
import type { DateTime } from "effect"

export type State = "not_listed" | "listed" | "auto_hidden" | "removed"

export type HiddenFor = "conditions" | "reports" | "staff"

/** States a staff member may set (the spec's table). */
export const STAFF_STATES = ["listed", "auto_hidden", "removed"] as const
export type StaffState = (typeof STAFF_STATES)[number]

/** The states that count as one of the owner's public servers (the three-per-owner limit). */
export const isPublic = (state: State): boolean => state === "listed" || state === "auto_hidden"

export interface Listing {
  readonly guildId: Snowflake.Snowflake
  /** The owner when last published: the per-owner limit counts by it. */
  readonly ownerId: Snowflake.Snowflake
  readonly slug: string
  readonly state: State
  readonly category: string
  readonly tags: ReadonlyArray<string>
  readonly description: string
  /** The guild's name as last seen (search runs over it); refreshed whenever a card is built. */
  readonly name: string
  /** Why staff or the reports rule hid or removed it (shown to the owner); null when listed by the owner. */
  readonly reason: string | null
  /**
   * Who hid an `auto_hidden` guild: the catalogue check (conditions no longer met; it lists the
   * guild again once they are), the reports rule, or staff (only staff list those again). Null
   * in other states.
   */
  readonly hiddenFor: HiddenFor | null
  readonly updatedAt: DateTime.Utc
}

/** What the owner's publication writes. */
export interface Publication {
  readonly guildId: Snowflake.Snowflake
  readonly ownerId: Snowflake.Snowflake
  readonly category: string
  readonly tags: ReadonlyArray<string>
  readonly description: string
  readonly name: string
  /** Slugs to try in order when the guild has none yet (the last one is always free). */
  readonly slugs: ReadonlyArray<string>
  readonly now: DateTime.Utc
}

/** The spec's limits for a card and its pages. */
export const MAX_PUBLIC_PER_OWNER = 3
export const DESCRIPTION_MIN = 40
export const DESCRIPTION_MAX = 300
export const MAX_TAGS = 3
export const TAG_MAX = 30
export const REASON_MAX = 200
export const PAGE_DEFAULT = 24
export const PAGE_MAX = 48
/** How far a search pages (the mirrored platform stops at 2999 too); also the ranked candidate cap. */
export const OFFSET_MAX = 2999
