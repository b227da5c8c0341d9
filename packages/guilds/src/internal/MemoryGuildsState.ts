/**
 * The in-memory GuildsRepo's state and what its parts share: the whole store is one Ref, read with
 * `read` and changed with `step` (one Ref.modify, so every change is atomic and decides its outcome
 * from the state it changes), and the orderings, paging and join checks the parts apply to it.
 */
import { DateTime, Effect, Option, Ref } from "effect"
import type { Ban, Channel, Guild, GuildCap, Invite, Member, Page, Role } from "../Guild.ts"
import { BannedFromGuild, GuildLimitReached, NoSuchGuild } from "../GuildsErrors.ts"
import type { Departure } from "../GuildsRepo.ts"

export interface State {
  readonly guilds: ReadonlyMap<string, Guild>
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
  readonly members: ReadonlyArray<Member>
  readonly bans: ReadonlyArray<Ban>
  readonly invites: ReadonlyArray<Invite>
}

/** How the parts reach the state. */
export interface Store {
  readonly read: <A>(f: (s: State) => A) => Effect.Effect<A>
  /** One atomic step that decides its outcome from the state it changes. */
  readonly step: <A, E>(f: (s: State) => readonly [Effect.Effect<A, E>, State]) => Effect.Effect<A, E>
}

export const makeStore: Effect.Effect<Store> = Effect.map(
  Ref.make<State>({
    guilds: new Map(),
    roles: [],
    channels: [],
    members: [],
    bans: [],
    invites: []
  }),
  (state) => ({
    read: (f) => Effect.map(Ref.get(state), f),
    step: (f) => Effect.flatten(Ref.modify(state, (s) => [...f(s)]))
  })
)

/** Ids compare as 64-bit numbers, not as text ("9" < "10"). */
export const compareIds = (a: string, b: string): number => {
  const x = BigInt(a)
  const y = BigInt(b)
  return x < y ? -1 : x > y ? 1 : 0
}

export const byPosition = <T extends { readonly position: number; readonly id: string }>(list: ReadonlyArray<T>) =>
  [...list].sort((a, b) => a.position - b.position || compareIds(a.id, b.id))

export const byUser = <T extends { readonly userId: string }>(list: ReadonlyArray<T>) =>
  [...list].sort((a, b) => compareIds(a.userId, b.userId))

/**
 * A page of a list sorted ascending by `key`: after `after` and before `before`; with only
 * `before`, the `limit` entries immediately before it (still ascending).
 */
export const paged = <T>(sorted: ReadonlyArray<T>, key: (item: T) => string, page: Page): ReadonlyArray<T> => {
  const after = page.after === undefined ? undefined : BigInt(page.after)
  const before = page.before === undefined ? undefined : BigInt(page.before)
  const limit = Math.max(0, page.limit)
  const within = sorted.filter((item) => {
    const k = BigInt(key(item))
    return (after === undefined || k > after) && (before === undefined || k < before)
  })
  return before !== undefined && after === undefined
    ? within.slice(Math.max(0, within.length - limit))
    : within.slice(0, limit)
}

export const isLive = (invite: Invite, now: DateTime.Utc): boolean =>
  (invite.maxAge === 0 ||
    DateTime.toEpochMillis(invite.createdAt) + invite.maxAge * 1000 > DateTime.toEpochMillis(now)) &&
  (invite.maxUses === 0 || invite.uses < invite.maxUses)

export const findMember = (s: State, guildId: string, userId: string) =>
  s.members.find((m) => m.guildId === guildId && m.userId === userId)

/** The state without the role: no member holds it and no overwrite names it any more. */
export const withoutRole = (s: State, guildId: string, roleId: string): State => ({
  ...s,
  roles: s.roles.filter((r) => !(r.guildId === guildId && r.id === roleId)),
  members: s.members.map((m) =>
    m.guildId === guildId && m.roleIds.some((id) => id === roleId)
      ? { ...m, roleIds: m.roleIds.filter((id) => id !== roleId) }
      : m
  ),
  channels: s.channels.map((c) =>
    c.guildId === guildId && c.overwrites.some((o) => o.type === 0 && o.id === roleId)
      ? { ...c, overwrites: c.overwrites.filter((o) => !(o.type === 0 && o.id === roleId)) }
      : c
  )
})

/**
 * The state without the membership and the managed roles of the departing bot (the one place
 * kicks, bans and leaving share, as PostgreSQL's `dropMember`); undefined when they were no member.
 */
export const withoutMember = (s: State, guildId: string, userId: string): readonly [Departure | undefined, State] => {
  if (findMember(s, guildId, userId) === undefined) return [undefined, s]
  const botRoles = s.roles.filter((r) => r.guildId === guildId && r.managed && r.botId === userId)
  const left: State = { ...s, members: s.members.filter((m) => !(m.guildId === guildId && m.userId === userId)) }
  return [
    { roleIds: botRoles.map((r) => r.id) },
    botRoles.reduce((state, role) => withoutRole(state, guildId, role.id), left)
  ]
}

/** Whether the user is in `cap` guilds already. */
export const atCap = (s: State, userId: string, cap: number): boolean =>
  s.members.filter((m) => m.userId === userId).length >= cap

/** Why a user may not become a member now (the checks `join` and `accept` share), if they may not. */
export const refusal = (
  s: State,
  guildId: string,
  userId: string,
  cap: GuildCap
): GuildLimitReached | BannedFromGuild | undefined => {
  if (s.bans.some((ban) => ban.guildId === guildId && ban.userId === userId)) return new BannedFromGuild()
  if (cap !== null && atCap(s, userId, cap)) return new GuildLimitReached()
  return undefined
}

/**
 * The domain checks the guild first, but a deletion can land between its checks and the step that
 * adds a row to the guild: that step then refuses as the guild being unknown, as PostgreSQL's does.
 */
export const noGuild = Effect.fail(new NoSuchGuild())

/** Replaces the items matching `is` with `f(item)`; answers the last changed item too. */
export const updated = <T>(list: ReadonlyArray<T>, is: (item: T) => boolean, f: (item: T) => T) => {
  let changed: T | undefined
  const next = list.map((item) => {
    if (!is(item)) return item
    changed = f(item)
    return changed
  })
  return [Option.fromNullishOr(changed), next] as const
}
