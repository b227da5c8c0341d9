/**
 * The answers of the access-token lookup kept in this process, so that an authenticated request
 * costs no round trip while nothing it depends on has changed (issue 22).
 *
 * Exactness comes from PostgreSQL, not from the code paths that write: migration 0030's triggers
 * on every table the lookup reads (sessions, their tokens, blocks, credentials, the account, its
 * profile, 2FA, memberships, Plus, pending e-mail links) `NOTIFY` the user's id (not for a new
 * session or token, migration 0031: the lookup reads only the row its digest names and that row's
 * session, and no Unknown answer is kept, so no kept answer can depend on a row inserted after it
 * was read), and every pooled
 * connection `LISTEN`s from its start (the `notifications` option of our @effect/sql-pg patch).
 * PostgreSQL delivers a transaction's notifications to the session that committed it before that
 * statement completes, so on this node a revoking write has dropped the entries before it returns;
 * other nodes drop them as their connections read the notification (published at the commit,
 * before the revoking request answers), and answer from the cache only while they hear their own
 * heartbeat (`Silence`, PrincipalHeartbeat.ts), which bounds how late that may be. A write by any
 * client of the database (another node, a script, psql) counts the same. The channel is the
 * database's: deployments in other schemas of it only cause extra invalidations.
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

/**
 * The channel the triggers notify; the payload is a user id or `*` for everything. Each node's
 * heartbeat (`~node seq`) goes to a channel of its own (`Store.beatChannel`), which only that node's
 * connections listen to: a beat on the shared channel would wake every connection of every node.
 */
export const CHANNEL = "veche_principal"
export const EVERYTHING = "*"
const HEARTBEAT = 126 // "~"

/**
 * The bound on how late a notification may be heard: the store answers only while it has heard, within
 * `maxMs` of `now()` (a real clock, not a request's), a heartbeat it sent itself. Notifications reach a
 * connection in commit order, so hearing its own heartbeat proves every change committed before it
 * was sent has been applied; a node whose connections are all busy with slow statements, or whose
 * database has gone silent, stops answering from the cache (its lookups then wait for the database,
 * as without the cache) instead of answering from what it may have missed.
 */
export interface Silence {
  readonly maxMs: number
  readonly now: () => number
}

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
  private readonly silence: Silence | undefined
  /** This store's name, in its heartbeats' payloads (`~node seq`) and its heartbeat channel's name. */
  readonly node = `${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  /**
   * Where this store's heartbeats go; its connections listen to it beside CHANNEL. Notifications
   * reach a listener in commit order across its channels, so hearing a beat here still proves every
   * change on CHANNEL committed before it was applied.
   */
  readonly beatChannel = `${CHANNEL}_beat_${this.node}`
  /** The heartbeats: the last number sent, when each was sent. */
  private beats = 0
  private readonly sentAt = new Map<number, number>()
  /** When the newest heartbeat heard back was sent. */
  private heardAt = Number.NEGATIVE_INFINITY
  /** Who hears of each invalidation (`watch`): the gateway's sessions, through PgCredentialChanges. */
  private readonly watchers = new Set<(userId: string) => void>()
  /** Lookups asked so far, and who waits for the next one: the heartbeat beats only while they come. */
  private asked = 0
  private onAsked: (() => void) | undefined = undefined

  /** Without `silence`, no heartbeat is needed (a store whose notifications cannot lag: tests of its logic). */
  constructor(maxEntries: number, silence?: Silence) {
    this.maxEntries = maxEntries
    this.silence = silence
  }

  get size(): number {
    return this.plain.size + this.withAccount.size
  }

  get(digest: string, account: boolean, nowMs: number): A | undefined {
    this.asked++
    if (this.onAsked !== undefined) {
      const wake = this.onAsked
      this.onAsked = undefined
      wake()
    }
    const entries = account ? this.withAccount : this.plain
    const entry = entries.get(digest)
    if (entry === undefined) return undefined
    if (this.silence !== undefined && this.silence.now() - this.heardAt > this.silence.maxMs) return undefined
    if (entry.validUntilMs > nowMs) return entry.value
    entries.delete(digest)
    this.unindex(digest, entry.userId)
    return undefined
  }

  /** How many lookups have asked this store so far (`get`, whether it answered or not). */
  get asks(): number {
    return this.asked
  }

  /** Calls `wake` once, at the next lookup; what it returns cancels that. */
  whenAsked(wake: () => void): () => void {
    this.onAsked = wake
    return () => {
      if (this.onAsked === wake) this.onAsked = undefined
    }
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

  /** A notification's payload, from either channel: a user id, `*`, or a heartbeat (`~node seq`). */
  onNotification = (payload: string): void => {
    if (payload.charCodeAt(0) === HEARTBEAT) this.heard(payload)
    else if (payload === EVERYTHING) this.flush()
    else this.invalidate(payload)
  }

  /** The next heartbeat's payload, to be notified on `beatChannel`; its sending time is remembered. */
  beat(): string {
    const seq = ++this.beats
    this.sentAt.set(seq, this.silence?.now() ?? 0)
    // beats never heard back (a silent database) are forgotten past a few dozen
    if (this.sentAt.size > 64) this.sentAt.delete(seq - 64)
    return `~${this.node} ${seq}`
  }

  private heard(payload: string): void {
    const space = payload.lastIndexOf(" ")
    if (payload.slice(1, space) !== this.node) return
    const seq = Number(payload.slice(space + 1))
    const sent = this.sentAt.get(seq)
    if (sent === undefined) return
    if (sent > this.heardAt) this.heardAt = sent
    for (const earlier of this.sentAt.keys()) {
      if (earlier > seq) break
      this.sentAt.delete(earlier)
    }
  }

  /**
   * Calls `onChange` with the user id of each invalidation from now on (`*` for a flush), after the
   * entries are dropped; what it returns stops that. Each listening connection hears a change, so
   * one change may come several times.
   */
  watch(onChange: (userId: string) => void): () => void {
    this.watchers.add(onChange)
    return () => {
      this.watchers.delete(onChange)
    }
  }

  private told(userId: string): void {
    for (const watcher of this.watchers) watcher(userId)
  }

  invalidate(userId: string): void {
    this.invalidateEntries(userId)
    this.told(userId)
  }

  private invalidateEntries(userId: string): void {
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
    this.told(EVERYTHING)
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
