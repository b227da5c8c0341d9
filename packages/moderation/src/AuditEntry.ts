/**
 * One staff action as the audit log keeps it: who (the staff member), what (an action name, dotted
 * by domain), when, on what (a kind of target and its id) and why (the reason given, if any), with
 * a few details the action adds (a new state, words added). Entries are never changed or removed:
 * the log answers "who did this" after the fact.
 */
import type { Snowflake } from "@veche/platform"
import type { DateTime } from "effect"

/** The actions moderation itself writes; other domains add theirs (e.g. `billing.grant`). */
export const ACTIONS = {
  block: "user.block",
  unblock: "user.unblock",
  restrict: "user.restrict",
  unrestrict: "user.unrestrict",
  catalogueState: "discovery.state",
  catalogueWords: "discovery.words",
  grantPlus: "billing.plus",
  grantBoosts: "billing.boosts"
} as const

/** What an action was done to. */
export type TargetType = "user" | "guild" | "catalogue" | "entitlement"

/** Extra facts of an action (a state set, words added); small, flat values only. */
export type Details = Readonly<Record<string, string | ReadonlyArray<string> | null>>

/** An action name: lower-case words joined by dots, at most 64 characters. */
export const ACTION_PATTERN = /^[a-z_]{1,30}(\.[a-z_]{1,30})?$/

export interface AuditEntry {
  readonly id: Snowflake.Snowflake
  readonly staffId: Snowflake.Snowflake
  readonly action: string
  readonly targetType: TargetType
  /** The target's id; null for a target without one (the catalogue's word list). */
  readonly targetId: Snowflake.Snowflake | null
  readonly reason: string | null
  readonly details: Details
  readonly createdAt: DateTime.Utc
}

/** A page of the log: newest first, strictly older than `before`, optionally one action or target. */
export interface AuditQuery {
  readonly limit: number
  readonly before: Snowflake.Snowflake | null
  readonly action: string | null
  readonly targetId: Snowflake.Snowflake | null
}

export const PAGE_DEFAULT = 50
export const PAGE_MAX = 100
