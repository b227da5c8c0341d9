/**
 * The port to sessions and their tokens (stored by digest only), and its in-memory adapter. Every
 * operation is atomic in the store: a refresh token is spent by one conditional update, so N
 * concurrent refreshes with it rotate exactly once; the others are reuses and revoke the session.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import { AccountBlocks } from "./AccountBlocks.ts"
import type { Snapshot } from "./AccountSnapshot.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import type { Block } from "./Block.ts"
import type { AccessGrant, Session } from "./Session.ts"

export interface NewTokens {
  readonly access: { readonly digest: string; readonly expiresAt: DateTime.Utc }
  readonly refresh: { readonly digest: string }
}

/**
 * What `GET /users/@me` shows of the token's account, read in the token's own lookup by a store
 * that can (PostgreSQL: one statement, so the route costs one round trip).
 */
export interface AccessAccount {
  /** None: the user is gone (an account deleted while a session of it lived). */
  readonly snapshot: Option.Option<Snapshot>
  /** The guilds the user is a member of, oldest membership first (as `Memberships.guildsOf`). */
  readonly guildIds: ReadonlyArray<Snowflake.Snowflake>
  /** The user object's `premium_type` now (users' ProfileEntitlements numbers: 0, or 2 while Plus runs). */
  readonly premiumType: number
}

export type AccessLookup =
  | {
      readonly _tag: "Valid"
      readonly grant: AccessGrant
      readonly lastUsedAt: DateTime.Utc
      /** The account's block, read in the same lookup (active or ended: the caller judges). */
      readonly block: Block | null
      /** Present only when asked for and the store reads it in the same lookup. */
      readonly account?: AccessAccount | undefined
    }
  | { readonly _tag: "Expired" }
  /**
   * Unknown, or its session was revoked, is past its absolute end, or was started under a password
   * that has changed since (its `passwordChangedAt` is not the account's).
   */
  | { readonly _tag: "Unknown" }

export type Rotation =
  | { readonly _tag: "Rotated"; readonly grant: AccessGrant; readonly sessionExpiresAt: DateTime.Utc }
  /**
   * Spent before, however recently, while its session was live: theft is assumed and the whole
   * session was revoked. There is no grace window: a thief who refreshed first and an owner who
   * retries a moment later look exactly like two racing refreshes, and a window would let the thief
   * keep the session (the spec: reuse of a rotated token revokes the whole chain).
   */
  | { readonly _tag: "Reused"; readonly sessionId: Snowflake.Snowflake }
  /** Unknown, expired, or its session already ended or its password changed (nothing to revoke). */
  | { readonly _tag: "Rejected" }

/** A login session found live (`findLive`), with its account's block to judge. */
export interface LiveSession {
  readonly sessionId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
  /** Active or ended: the caller judges. */
  readonly block: Block | null
}

/** What one sweep removed. */
export interface Swept {
  readonly sessions: number
  readonly tokens: number
}

export class SessionsRepo extends Context.Service<
  SessionsRepo,
  {
    readonly create: (session: Session, tokens: NewTokens) => Effect.Effect<void>
    /**
     * The access token's session, with its account's block, in one lookup of the store.
     * `withAccount`: also the account as `GET /users/@me` shows it, when the store can read it in
     * that same lookup (PostgreSQL); the memory store leaves it out and the caller reads it apart.
     */
    readonly findAccess: (digest: string, now: DateTime.Utc, withAccount?: boolean) => Effect.Effect<AccessLookup>
    readonly rotate: (refreshDigest: string, next: NewTokens, now: DateTime.Utc) => Effect.Effect<Rotation>
    readonly touch: (sessionId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<void>
    /**
     * Those of `sessionIds` that are neither revoked, past their end nor of an old password, with
     * their accounts' blocks, in one lookup of the store (the gateway's open connections ask this
     * of their login sessions, many at a time). Unknown ids are left out.
     */
    readonly findLive: (
      sessionIds: ReadonlyArray<Snowflake.Snowflake>,
      now: DateTime.Utc
    ) => Effect.Effect<ReadonlyArray<LiveSession>>
    /** The user's sessions that are neither revoked, past their end nor of an old password, newest first. */
    readonly listLive: (userId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<ReadonlyArray<Session>>
    readonly revoke: (sessionId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<void>
    /** Revokes all the user's sessions but `keep` (none: all); answers how many were revoked. */
    readonly revokeAll: (
      userId: Snowflake.Snowflake,
      keep: Snowflake.Snowflake | undefined,
      now: DateTime.Utc
    ) => Effect.Effect<number>
    /**
     * Removes at most `limit` sessions revoked or past their absolute end at or before `cutoff`,
     * with every token they issued (spent refresh tokens included). Safe to run from several nodes
     * at once: each session is removed by one of them, none waits for another. A dead session's
     * tokens answer 401 whether they exist or not, so removing them loses no reuse detection; a live
     * session's spent refresh tokens stay, for that detection, until the session itself ends.
     */
    readonly sweep: (cutoff: DateTime.Utc, limit: number) => Effect.Effect<Swept>
  }
>()("@veche/auth/SessionsRepo") {
  /**
   * Sessions in memory, reading blocks and password changes from the AccountBlocks and AccountsRepo
   * beside them (the memory ones).
   */
  static readonly layerMemory: Layer.Layer<SessionsRepo, never, AccountBlocks | AccountsRepo> = Layer.effect(
    SessionsRepo,
    Effect.suspend(makeMemory)
  )
}

interface StoredToken {
  readonly sessionId: Snowflake.Snowflake
  readonly kind: "access" | "refresh"
  readonly expiresAt: DateTime.Utc | undefined
  readonly usedAt: DateTime.Utc | undefined
}

interface State {
  readonly sessions: ReadonlyMap<string, Session>
  readonly tokens: ReadonlyMap<string, StoredToken>
}

const isLive = (session: Session | undefined, now: DateTime.Utc): session is Session =>
  session !== undefined && session.revokedAt === null && DateTime.isLessThan(now, session.expiresAt)

/** The session was started under the account's current password (`changedAt`: its passwordChangedAt). */
const underCurrentPassword = (session: Session, changedAt: DateTime.Utc | null) =>
  session.passwordChangedAt === null || changedAt === null
    ? session.passwordChangedAt === changedAt
    : DateTime.Equivalence(session.passwordChangedAt, changedAt)

function withTokens(tokens: ReadonlyMap<string, StoredToken>, sessionId: Snowflake.Snowflake, next: NewTokens) {
  const result = new Map(tokens)
  result.set(next.access.digest, { sessionId, kind: "access", expiresAt: next.access.expiresAt, usedAt: undefined })
  result.set(next.refresh.digest, { sessionId, kind: "refresh", expiresAt: undefined, usedAt: undefined })
  return result
}

function revoked(state: State, ids: ReadonlyArray<string>, now: DateTime.Utc): State {
  const sessions = new Map(state.sessions)
  for (const id of ids) {
    const session = sessions.get(id)
    if (session !== undefined && session.revokedAt === null) sessions.set(id, { ...session, revokedAt: now })
  }
  return { ...state, sessions }
}

function makeMemory() {
  return Effect.gen(function* () {
    const state = yield* Ref.make<State>({ sessions: new Map(), tokens: new Map() })
    const blocks = yield* AccountBlocks
    const accounts = yield* AccountsRepo

    /** The account's passwordChangedAt (null: never changed, or no account, as in some tests). */
    const passwordChangedAt = (userId: Snowflake.Snowflake) =>
      Effect.map(accounts.findByUserId(userId), (account) =>
        Option.getOrNull(Option.flatMapNullishOr(account, (found) => found.credentials.passwordChangedAt))
      )

    /** The password change of the account whose refresh token this is, read before the rotation. */
    const passwordChangedAtOfToken = (digest: string) =>
      Effect.flatMap(Ref.get(state), (s) => {
        const token = s.tokens.get(digest)
        const session = token === undefined ? undefined : s.sessions.get(token.sessionId)
        return session === undefined ? Effect.succeed(null) : passwordChangedAt(session.userId)
      })
    return SessionsRepo.of({
      create: (session, tokens) =>
        Ref.update(state, (s) => ({
          sessions: new Map(s.sessions).set(session.id, session),
          tokens: withTokens(s.tokens, session.id, tokens)
        })),
      findAccess: (digest, now) =>
        Effect.flatMap(Ref.get(state), (s): Effect.Effect<AccessLookup> => {
          const token = s.tokens.get(digest)
          if (token === undefined || token.kind !== "access") return Effect.succeed({ _tag: "Unknown" })
          const session = s.sessions.get(token.sessionId)
          if (!isLive(session, now)) return Effect.succeed({ _tag: "Unknown" })
          return Effect.gen(function* () {
            if (!underCurrentPassword(session, yield* passwordChangedAt(session.userId))) return { _tag: "Unknown" }
            if (token.expiresAt !== undefined && !DateTime.isLessThan(now, token.expiresAt)) return { _tag: "Expired" }
            const block = yield* blocks.find(session.userId)
            return {
              _tag: "Valid",
              grant: { sessionId: session.id, userId: session.userId },
              lastUsedAt: session.lastUsedAt,
              block: Option.getOrNull(block)
            }
          })
        }),
      rotate: (refreshDigest, next, now) =>
        Effect.flatMap(passwordChangedAtOfToken(refreshDigest), (changedAt) =>
          Ref.modify(state, (s): [Rotation, State] => {
            const token = s.tokens.get(refreshDigest)
            if (token === undefined || token.kind !== "refresh") return [{ _tag: "Rejected" }, s]
            const session = s.sessions.get(token.sessionId)
            if (!isLive(session, now) || !underCurrentPassword(session, changedAt)) return [{ _tag: "Rejected" }, s]
            if (token.usedAt !== undefined) {
              return [{ _tag: "Reused", sessionId: token.sessionId }, revoked(s, [token.sessionId], now)]
            }
            // Spend the old refresh token; the old access token goes too (one live pair per session).
            const tokens = withTokens(s.tokens, session.id, next)
            tokens.set(refreshDigest, { ...token, usedAt: now })
            for (const [digest, other] of tokens) {
              if (other.sessionId === session.id && other.kind === "access" && digest !== next.access.digest) {
                tokens.delete(digest)
              }
            }
            const sessions = new Map(s.sessions).set(session.id, { ...session, lastUsedAt: now })
            return [
              {
                _tag: "Rotated",
                grant: { sessionId: session.id, userId: session.userId },
                sessionExpiresAt: session.expiresAt
              },
              { sessions, tokens }
            ]
          })
        ),
      touch: (sessionId, now) =>
        Ref.update(state, (s) => {
          const session = s.sessions.get(sessionId)
          if (session === undefined) return s
          return { ...s, sessions: new Map(s.sessions).set(sessionId, { ...session, lastUsedAt: now }) }
        }),
      findLive: (sessionIds, now) =>
        Effect.flatMap(Ref.get(state), (s) =>
          Effect.forEach(
            sessionIds.flatMap((id) => {
              const session = s.sessions.get(id)
              return isLive(session, now) ? [session] : []
            }),
            (session) =>
              Effect.map(
                Effect.zip(passwordChangedAt(session.userId), blocks.find(session.userId)),
                ([changedAt, block]): ReadonlyArray<LiveSession> =>
                  underCurrentPassword(session, changedAt)
                    ? [{ sessionId: session.id, userId: session.userId, block: Option.getOrNull(block) }]
                    : []
              )
          ).pipe(Effect.map((found) => found.flat()))
        ),
      listLive: (userId, now) =>
        Effect.zipWith(Ref.get(state), passwordChangedAt(userId), (s, changedAt) =>
          [...s.sessions.values()]
            .filter(
              (session) => session.userId === userId && isLive(session, now) && underCurrentPassword(session, changedAt)
            )
            .sort((a, b) => DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt))
        ),
      revoke: (sessionId, now) => Ref.update(state, (s) => revoked(s, [sessionId], now)),
      revokeAll: (userId, keep, now) =>
        Ref.modify(state, (s): [number, State] => {
          const ids = [...s.sessions.values()]
            .filter((session) => session.userId === userId && session.id !== keep && session.revokedAt === null)
            .map((session) => session.id)
          return [ids.length, revoked(s, ids, now)]
        }),
      sweep: (cutoff, limit) =>
        Ref.modify(state, (s): [Swept, State] => {
          const dead = new Set<string>()
          for (const session of s.sessions.values()) {
            if (dead.size >= limit) break
            const ended =
              (session.revokedAt !== null && !DateTime.isGreaterThan(session.revokedAt, cutoff)) ||
              !DateTime.isGreaterThan(session.expiresAt, cutoff)
            if (ended) dead.add(session.id)
          }
          if (dead.size === 0) return [{ sessions: 0, tokens: 0 }, s]
          const sessions = new Map(s.sessions)
          for (const id of dead) sessions.delete(id)
          const tokens = new Map(s.tokens)
          for (const [digest, token] of s.tokens) if (dead.has(token.sessionId)) tokens.delete(digest)
          return [
            { sessions: dead.size, tokens: s.tokens.size - tokens.size },
            { sessions, tokens }
          ]
        })
    })
  })
}
