/**
 * The answers of the access-token lookup kept in this process, so that an authenticated request
 * costs no round trip while nothing it depends on has changed (issue 22).
 *
 * Exactness comes from PostgreSQL, not from the code paths that write: migration 0030's triggers
 * on every table the lookup reads (sessions, their tokens, blocks, credentials, the account, its
 * profile, 2FA, memberships, Plus, pending e-mail links) `NOTIFY` the user's id, and every pooled
 * connection `LISTEN`s from its start (the `notifications` option of our @effect/sql-pg patch).
 * PostgreSQL delivers a transaction's notifications to the session that committed it before that
 * statement completes, so on this node a revoking write has dropped the entries before it returns;
 * other nodes drop them as their connections read the notification (published at the commit,
 * before the revoking request answers). A write by any client of the database (another node, a
 * script, psql) counts the same.
 *
 * A lookup that was under way while its user was invalidated is not kept (it may have read the row
 * before the write): each invalidation stamps the user with a new epoch, and an answer is kept only
 * if its ticket, taken before the statement was sent, is not older. A session that stops listening
 * (died, closed) empties the cache, since what it would have delivered is lost. Entries end at the
 * earliest time their answer would change by itself (token or session end, Plus running out, a
 * pending e-mail link expiring), and the oldest are dropped past `maxEntries`.
 */
import type { SessionsRepo } from "@veche/auth"
import { Context, Layer } from "effect"

/** The channel the triggers notify; the payload is a user id, or `*` for everything. */
export const CHANNEL = "veche_principal"
export const EVERYTHING = "*"

interface Entry<A> {
  readonly userId: string
  readonly value: A
  readonly validUntilMs: number
}

/** How many users' recent invalidations are remembered before the floor moves up instead. */
const REMEMBERED_INVALIDATIONS = 4096

export class Store<A> {
  /** By access-token digest: the plain lookup, and the one with the account (`GET /users/@me`). */
  private readonly plain = new Map<string, Entry<A>>()
  private readonly withAccount = new Map<string, Entry<A>>()
  private readonly digestsByUser = new Map<string, Set<string>>()
  private epoch = 0
  /** Tickets older than this are refused: invalidations before it are no longer remembered. */
  private floor = 0
  private readonly invalidatedAt = new Map<string, number>()
  private readonly maxEntries: number

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries
  }

  get size(): number {
    return this.plain.size + this.withAccount.size
  }

  get(digest: string, account: boolean, nowMs: number): A | undefined {
    const entries = account ? this.withAccount : this.plain
    const entry = entries.get(digest)
    if (entry === undefined) return undefined
    if (entry.validUntilMs > nowMs) return entry.value
    entries.delete(digest)
    this.unindex(digest, entry.userId)
    return undefined
  }

  /** Taken before the lookup's statement is sent; `keep` refuses the answer if its user changed since. */
  ticket(): number {
    return this.epoch
  }

  keep(ticket: number, digest: string, account: boolean, userId: string, value: A, validUntilMs: number): void {
    if (this.maxEntries <= 0 || ticket < this.floor) return
    const invalidated = this.invalidatedAt.get(userId)
    if (invalidated !== undefined && invalidated > ticket) return
    const entries = account ? this.withAccount : this.plain
    if (!entries.has(digest) && this.size >= this.maxEntries) this.dropOldest(entries)
    entries.set(digest, { userId, value, validUntilMs })
    let digests = this.digestsByUser.get(userId)
    if (digests === undefined) {
      digests = new Set()
      this.digestsByUser.set(userId, digests)
    }
    digests.add(digest)
  }

  /** A notification's payload: a user id, or `*`. */
  onNotification = (payload: string): void => {
    if (payload === EVERYTHING) this.flush()
    else this.invalidate(payload)
  }

  invalidate(userId: string): void {
    this.epoch++
    if (this.invalidatedAt.size >= REMEMBERED_INVALIDATIONS) {
      this.invalidatedAt.clear()
      this.floor = this.epoch
    }
    this.invalidatedAt.set(userId, this.epoch)
    const digests = this.digestsByUser.get(userId)
    if (digests === undefined) return
    this.digestsByUser.delete(userId)
    for (const digest of digests) {
      this.plain.delete(digest)
      this.withAccount.delete(digest)
    }
  }

  flush = (): void => {
    this.epoch++
    this.floor = this.epoch
    this.invalidatedAt.clear()
    this.plain.clear()
    this.withAccount.clear()
    this.digestsByUser.clear()
  }

  private dropOldest(entries: Map<string, Entry<A>>): void {
    const from = entries.size > 0 ? entries : entries === this.plain ? this.withAccount : this.plain
    for (const [digest, entry] of from) {
      from.delete(digest)
      this.unindex(digest, entry.userId)
      return
    }
  }

  /**
   * An entry left one of the maps: its digest leaves the user's index once neither map holds it.
   * Every removal but a user's own invalidation goes through here, or the index (bounded by
   * nothing else) would keep the digests of users never written again.
   */
  private unindex(digest: string, userId: string): void {
    if (this.plain.has(digest) || this.withAccount.has(digest)) return
    const digests = this.digestsByUser.get(userId)
    if (digests === undefined) return
    digests.delete(digest)
    if (digests.size === 0) this.digestsByUser.delete(userId)
  }
}

export type Lookups = Store<SessionsRepo.AccessLookup>

/**
 * The cache PgDatabase builds beside its listening connections. Absent when the client was built
 * elsewhere, without listening: PgSessionsRepo then reads every time.
 */
export class PrincipalCache extends Context.Service<PrincipalCache, Lookups>()("@veche/postgres/PrincipalCache") {}

export const layer = (store: Lookups): Layer.Layer<PrincipalCache> => Layer.succeed(PrincipalCache, store)
