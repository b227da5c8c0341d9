/**
 * Who a message mentions: the user, role and @everyone/@here mentions written in its content,
 * narrowed by the sender's `allowed_mentions` as the mirrored platform does (absent: everything
 * written; `parse` lets a kind through wholesale, `users`/`roles` name single ids), and @everyone
 * only for a sender allowed to mention everyone. Existence (users, the guild's roles) is checked by
 * the caller; ids are kept in the order first written.
 */
import type { Snowflake } from "@veche/platform"

export type ParseKind = "users" | "roles" | "everyone"

export interface AllowedMentions {
  readonly parse?: ReadonlyArray<ParseKind> | undefined
  readonly users?: ReadonlyArray<Snowflake.Snowflake> | undefined
  readonly roles?: ReadonlyArray<Snowflake.Snowflake> | undefined
  /** Whether a reply mentions the author of the message it answers. */
  readonly repliedUser?: boolean | undefined
}

export interface Written {
  readonly userIds: ReadonlyArray<Snowflake.Snowflake>
  readonly roleIds: ReadonlyArray<Snowflake.Snowflake>
  readonly everyone: boolean
}

// Snowflakes are at most 20 digits; longer runs are not mentions (and never reach BigInt).
const USER = /<@!?([0-9]{1,20})>/g
const ROLE = /<@&([0-9]{1,20})>/g
const EVERYONE = /@(?:everyone|here)/

const unique = (ids: Iterable<string>): ReadonlyArray<Snowflake.Snowflake> =>
  [...new Set(ids)] as Array<Snowflake.Snowflake>

/** The mentions written in the content, before any narrowing. */
export const written = (content: string): Written => ({
  userIds: unique(Array.from(content.matchAll(USER), (match) => match[1] ?? "")),
  roleIds: unique(Array.from(content.matchAll(ROLE), (match) => match[1] ?? "")),
  everyone: EVERYONE.test(content)
})

/** What of the written mentions the sender lets through (existence aside). */
export const allowed = (
  mentions: Written,
  allowedMentions: AllowedMentions | undefined,
  mayMentionEveryone: boolean
): Written => {
  if (allowedMentions === undefined) return { ...mentions, everyone: mentions.everyone && mayMentionEveryone }
  const parse = new Set(allowedMentions.parse ?? [])
  const users = new Set<string>(allowedMentions.users ?? [])
  const roles = new Set<string>(allowedMentions.roles ?? [])
  return {
    userIds: mentions.userIds.filter((id) => parse.has("users") || users.has(id)),
    roleIds: mentions.roleIds.filter((id) => parse.has("roles") || roles.has(id)),
    everyone: mentions.everyone && parse.has("everyone") && mayMentionEveryone
  }
}

/** Whether a reply pings the replied-to author: by default yes, unless `allowed_mentions` says otherwise. */
export const mentionsRepliedUser = (allowedMentions: AllowedMentions | undefined): boolean =>
  allowedMentions === undefined ? true : allowedMentions.repliedUser === true
