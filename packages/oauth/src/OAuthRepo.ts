/**
 * The port to the OAuth provider's tables (codes, grants, tokens), and its in-memory adapter. Every
 * race is settled by the store in one step: a code is redeemed by a conditional update that also
 * creates its grant (so N concurrent redemptions make exactly one grant, and a replay can revoke
 * that grant even before its tokens exist), and a refresh token is spent by a conditional update.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { Grant, StoredCode, StoredPair } from "./OAuthGrant.ts"

export type Redemption =
  | { readonly _tag: "Redeemed"; readonly code: StoredCode; readonly grant: Grant }
  /** Used before (or burned): the grant it started has been revoked with its tokens. */
  | { readonly _tag: "Replayed" }
  /** Never issued, or expired. */
  | { readonly _tag: "Unknown" }

export type AccessLookup =
  | { readonly _tag: "Found"; readonly grant: Grant }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Unknown" }

export type Rotation =
  | { readonly _tag: "Rotated"; readonly grant: Grant }
  /** The refresh token was spent already: its grant (the whole chain) has been revoked. */
  | { readonly _tag: "Reused" }
  | { readonly _tag: "Unknown" }

/** What one sweep removed. */
export interface Swept {
  readonly codes: number
  readonly grants: number
  readonly accessTokens: number
}

/** What a redemption makes of the code's grant: its id, when, and how the client proved itself. */
export interface NewGrant {
  readonly id: Snowflake.Snowflake
  readonly confidential: boolean
}

export class OAuthRepo extends Context.Service<
  OAuthRepo,
  {
    readonly insertCode: (code: StoredCode) => Effect.Effect<void>
    /**
     * Spends the code if it is live (unused, not expired) and creates its grant in the same step.
     * A spent code's grant is revoked instead (the replay rule).
     */
    readonly redeemCode: (digest: string, grant: NewGrant, now: DateTime.Utc) => Effect.Effect<Redemption>
    /** Adds a token pair to a grant (a revoked grant's tokens are dead on arrival). */
    readonly addPair: (grantId: Snowflake.Snowflake, pair: StoredPair) => Effect.Effect<void>
    /** The live grant of an access token. */
    readonly findAccess: (digest: string, now: DateTime.Utc) => Effect.Effect<AccessLookup>
    /** The live grant a refresh token belongs to, spent or not (to check the client before rotating). */
    readonly findRefreshGrant: (digest: string) => Effect.Effect<Option.Option<Grant>>
    /** Spends the refresh token and adds `next` to its grant, in one step; a spent one revokes the grant. */
    readonly rotate: (digest: string, next: StoredPair, now: DateTime.Utc) => Effect.Effect<Rotation>
    readonly revokeGrant: (grantId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<void>
    /**
     * Revokes the grant of this access or refresh token if it is `applicationId`'s (others stay);
     * with `applicationId` null (the holder revokes without naming a client), whoever's it is.
     */
    readonly revokeByToken: (
      digest: string,
      applicationId: Snowflake.Snowflake | null,
      now: DateTime.Utc
    ) => Effect.Effect<void>
    /** Every grant of the application, and its unredeemed codes (the application is deleted). */
    readonly revokeApplication: (applicationId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<void>
    /** The user's live grants, oldest first (their data export). */
    readonly grantsOf: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Grant>>
    /** Every grant of the user, and their unredeemed codes (the account is erased). */
    readonly revokeUser: (userId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<void>
    /** Whether the user has a live grant for the application (the consent page's `authorized`). */
    readonly hasLiveGrant: (applicationId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /**
     * Removes up to `limit` rows of each kind that nothing can use any more: codes expired before
     * `cutoff` (a replay after that is refused as unknown anyway), grants revoked before `cutoff`
     * with all their tokens, and access tokens expired before `cutoff`. Spent refresh tokens of a
     * live grant stay: their reuse must still revoke the chain. Safe on several nodes at once.
     */
    readonly sweep: (cutoff: DateTime.Utc, limit: number) => Effect.Effect<Swept>
  }
>()("@veche/oauth/OAuthRepo") {
  static readonly layerMemory: Layer.Layer<OAuthRepo> = Layer.effect(
    OAuthRepo,
    Effect.gen(function* () {
      interface CodeRow {
        readonly code: StoredCode
        readonly usedAt: DateTime.Utc | null
        readonly grantId: Snowflake.Snowflake | null
      }
      interface GrantRow {
        readonly grant: Grant
        /** When the grant ended (the sweep removes it a while later), null while it lives. */
        readonly revokedAt: DateTime.Utc | null
      }
      interface State {
        readonly codes: Map<string, CodeRow>
        readonly grants: Map<string, GrantRow>
        readonly access: Map<string, { readonly grantId: string; readonly expiresAt: DateTime.Utc }>
        readonly refresh: Map<string, { readonly grantId: string; readonly spent: boolean }>
      }
      // One Ref over all four maps: each method is one atomic modify, as one statement is on PG.
      const state = yield* Ref.make<State>({
        codes: new Map(),
        grants: new Map(),
        access: new Map(),
        refresh: new Map()
      })

      const liveGrant = (s: State, grantId: string): Option.Option<Grant> => {
        const row = s.grants.get(grantId)
        return row === undefined || row.revokedAt !== null ? Option.none() : Option.some(row.grant)
      }
      const revoked = (s: State, grantId: string, now: DateTime.Utc): State => {
        const row = s.grants.get(grantId)
        if (row === undefined || row.revokedAt !== null) return s
        return { ...s, grants: new Map(s.grants).set(grantId, { ...row, revokedAt: now }) }
      }
      /** Every grant matching, and the matching codes not yet redeemed (spent without a grant). */
      const revokedWhere = (
        s: State,
        now: DateTime.Utc,
        matches: (owner: { readonly applicationId: string; readonly userId: string }) => boolean
      ): State => {
        let next = s
        for (const [id, row] of s.grants) if (matches(row.grant)) next = revoked(next, id, now)
        const codes = new Map(next.codes)
        for (const [digest, row] of codes) {
          if (matches(row.code) && row.usedAt === null) codes.set(digest, { ...row, usedAt: now })
        }
        return { ...next, codes }
      }
      const withPair = (s: State, grantId: string, pair: StoredPair): State => ({
        ...s,
        access: new Map(s.access).set(pair.access.digest, { grantId, expiresAt: pair.access.expiresAt }),
        refresh: new Map(s.refresh).set(pair.refresh.digest, { grantId, spent: false })
      })

      return OAuthRepo.of({
        insertCode: (code) =>
          Ref.update(state, (s) => ({
            ...s,
            codes: new Map(s.codes).set(code.digest, { code, usedAt: null, grantId: null })
          })),
        redeemCode: (digest, fresh, now) =>
          Ref.modify(state, (s): [Redemption, State] => {
            const row = s.codes.get(digest)
            if (row === undefined) return [{ _tag: "Unknown" }, s]
            if (row.usedAt !== null) {
              // Spent by its application's deletion, not by a redemption: no grant to end.
              return row.grantId === null
                ? [{ _tag: "Unknown" }, s]
                : [{ _tag: "Replayed" }, revoked(s, row.grantId, now)]
            }
            if (DateTime.isGreaterThanOrEqualTo(now, row.code.expiresAt)) return [{ _tag: "Unknown" }, s]
            const grant: Grant = {
              id: fresh.id,
              applicationId: row.code.applicationId,
              userId: row.code.userId,
              scopes: row.code.scopes,
              confidential: fresh.confidential,
              createdAt: now
            }
            return [
              { _tag: "Redeemed", code: row.code, grant },
              {
                ...s,
                codes: new Map(s.codes).set(digest, { ...row, usedAt: now, grantId: fresh.id }),
                grants: new Map(s.grants).set(fresh.id, { grant, revokedAt: null })
              }
            ]
          }),
        addPair: (grantId, pair) => Ref.update(state, (s) => withPair(s, grantId, pair)),
        findAccess: (digest, now) =>
          Effect.map(Ref.get(state), (s): AccessLookup => {
            const token = s.access.get(digest)
            if (token === undefined) return { _tag: "Unknown" }
            const grant = liveGrant(s, token.grantId)
            if (Option.isNone(grant)) return { _tag: "Unknown" }
            if (DateTime.isGreaterThanOrEqualTo(now, token.expiresAt)) return { _tag: "Expired" }
            return { _tag: "Found", grant: grant.value }
          }),
        findRefreshGrant: (digest) =>
          Effect.map(Ref.get(state), (s) => {
            const token = s.refresh.get(digest)
            return token === undefined ? Option.none() : liveGrant(s, token.grantId)
          }),
        rotate: (digest, next, now) =>
          Ref.modify(state, (s): [Rotation, State] => {
            const token = s.refresh.get(digest)
            if (token === undefined) return [{ _tag: "Unknown" }, s]
            const grant = liveGrant(s, token.grantId)
            if (Option.isNone(grant)) return [{ _tag: "Unknown" }, s]
            if (token.spent) return [{ _tag: "Reused" }, revoked(s, token.grantId, now)]
            const spent = { ...s, refresh: new Map(s.refresh).set(digest, { ...token, spent: true }) }
            return [{ _tag: "Rotated", grant: grant.value }, withPair(spent, token.grantId, next)]
          }),
        revokeGrant: (grantId, now) => Ref.update(state, (s) => revoked(s, grantId, now)),
        revokeByToken: (digest, applicationId, now) =>
          Ref.update(state, (s) => {
            const grantId = s.access.get(digest)?.grantId ?? s.refresh.get(digest)?.grantId
            if (grantId === undefined) return s
            if (applicationId !== null && s.grants.get(grantId)?.grant.applicationId !== applicationId) return s
            return revoked(s, grantId, now)
          }),
        revokeApplication: (applicationId, now) =>
          Ref.update(state, (s) => revokedWhere(s, now, (owner) => owner.applicationId === applicationId)),
        grantsOf: (userId) =>
          Effect.map(Ref.get(state), (s) =>
            [...s.grants.values()]
              .filter((row) => row.revokedAt === null && row.grant.userId === userId)
              .map((row) => row.grant)
              .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
          ),
        revokeUser: (userId, now) => Ref.update(state, (s) => revokedWhere(s, now, (owner) => owner.userId === userId)),
        hasLiveGrant: (applicationId, userId) =>
          Effect.map(Ref.get(state), (s) => {
            for (const row of s.grants.values()) {
              if (row.revokedAt === null && row.grant.applicationId === applicationId && row.grant.userId === userId)
                return true
            }
            return false
          }),
        sweep: (cutoff, limit) =>
          Ref.modify(state, (s): [Swept, State] => {
            const before = (at: DateTime.Utc) => DateTime.isLessThan(at, cutoff)
            const codes = new Map(s.codes)
            const doomedCodes = [...codes].filter(([, row]) => before(row.code.expiresAt)).slice(0, limit)
            for (const [digest] of doomedCodes) codes.delete(digest)
            const grants = new Map(s.grants)
            const doomedGrants = new Set(
              [...grants]
                .filter(([, row]) => row.revokedAt !== null && before(row.revokedAt))
                .slice(0, limit)
                .map(([id]) => id)
            )
            for (const id of doomedGrants) grants.delete(id)
            const access = new Map(s.access)
            let expired = 0
            let accessTokens = 0
            for (const [digest, token] of s.access) {
              if (doomedGrants.has(token.grantId)) {
                access.delete(digest)
                accessTokens++
              } else if (expired < limit && before(token.expiresAt)) {
                access.delete(digest)
                expired++
                accessTokens++
              }
            }
            const refresh = new Map([...s.refresh].filter(([, token]) => !doomedGrants.has(token.grantId)))
            return [
              { codes: doomedCodes.length, grants: doomedGrants.size, accessTokens },
              { codes, grants, access, refresh }
            ]
          })
      })
    })
  )
}
