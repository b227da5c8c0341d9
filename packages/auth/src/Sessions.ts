/**
 * Sessions: each login starts one and gets a token pair; refresh rotates the pair (reuse of a spent
 * refresh token ends the whole session); access tokens are checked on every request. A session
 * started under a password that has since changed is refused like a revoked one.
 */
import { unstacked } from "@veche/errors"
import { Snowflake, Spans } from "@veche/platform"
import { Clock, Context, DateTime, Duration, Effect, Layer, Option, type Redacted } from "effect"
import { AccountBlocks } from "./AccountBlocks.ts"
import * as Block from "./Block.ts"
import type { AccessGrant, ClientInfo, Session } from "./Session.ts"
import { SessionsConfig } from "./SessionsConfig.ts"
import { AccountBlocked, RefreshRejected, TokenExpired, TokenInvalid } from "./SessionsErrors.ts"
import { type AccessAccount, type AccessLookup, SessionsRepo } from "./SessionsRepo.ts"
import { type Minted, Tokens } from "./Tokens.ts"

export interface TokenPair {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Redacted.Redacted<string>
  /** Seconds until the access token expires. */
  readonly expiresIn: number
  readonly userId: Snowflake.Snowflake
  readonly sessionId: Snowflake.Snowflake
}

/** A valid access token's grant, with its account when it was asked for and read in the same lookup. */
export interface Authenticated extends AccessGrant {
  readonly account?: AccessAccount | undefined
}

export class Sessions extends Context.Service<
  Sessions,
  {
    /**
     * `passwordChangedAt`: the account's value as read with the password hash the login checked
     * (none or null: never changed, as for a new registration). A session started with an older
     * value than the account's is refused from its first request.
     */
    readonly start: (
      userId: Snowflake.Snowflake,
      client: ClientInfo,
      passwordChangedAt?: DateTime.Utc | null
    ) => Effect.Effect<TokenPair>
    readonly refresh: (
      refreshToken: Redacted.Redacted<string>
    ) => Effect.Effect<TokenPair, RefreshRejected | AccountBlocked>
    /**
     * `withAccount`: read the account `GET /users/@me` shows in the token's lookup when the store
     * can (then `account` is set; otherwise the caller reads it apart). `digest`: the token's
     * `OpaqueSecrets.digestOf` when the caller already has it (the edge digests each request's
     * header once); the token is still looked up on every call.
     */
    readonly authenticate: (
      accessToken: Redacted.Redacted<string>,
      options?: { readonly withAccount?: boolean; readonly digest?: string | undefined }
    ) => Effect.Effect<Authenticated, TokenInvalid | TokenExpired | AccountBlocked>
    /**
     * Those of `sessionIds` still usable: live (not revoked, ended or of an old password) and their
     * accounts not blocked now. Asked for many at a time by holders of long-lived connections (the
     * gateway), which rest on a login session rather than on its rotating access token.
     */
    readonly usable: (sessionIds: ReadonlyArray<Snowflake.Snowflake>) => Effect.Effect<ReadonlySet<string>>
    /** Refuses when the account is blocked now (login, recovery and refresh ask before a new pair). */
    readonly ensureNotBlocked: (userId: Snowflake.Snowflake) => Effect.Effect<void, AccountBlocked>
    readonly list: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Session>>
    readonly end: (sessionId: Snowflake.Snowflake) => Effect.Effect<void>
    /** Ends every session of the user but `keep`; answers how many ended. */
    readonly endOthers: (userId: Snowflake.Snowflake, keep: Snowflake.Snowflake) => Effect.Effect<number>
    /** Ends every session of the user (password recovery, account block). */
    readonly endAll: (userId: Snowflake.Snowflake) => Effect.Effect<number>
  }
>()("@veche/auth/Sessions") {
  static readonly layer: Layer.Layer<
    Sessions,
    never,
    SessionsRepo | AccountBlocks | Tokens | SessionsConfig | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const blocks = yield* AccountBlocks
      const tokens = yield* Tokens
      const config = yield* SessionsConfig
      const ids = yield* Snowflake.SnowflakeGenerator
      const accessTtlMs = Duration.toMillis(config.accessTokenTtl)
      const touchEveryMs = Duration.toMillis(config.touchEvery)

      const mintPair = (now: DateTime.Utc) =>
        Effect.map(tokens.mintSessionPair, ({ access, refresh }) => {
          const expiresAt = DateTime.add(now, { milliseconds: accessTtlMs })
          return {
            access,
            refresh,
            stored: { access: { digest: access.digest, expiresAt }, refresh: { digest: refresh.digest } }
          }
        })

      const pairOf = (
        minted: { readonly access: Minted; readonly refresh: Minted },
        grant: AccessGrant
      ): TokenPair => ({
        accessToken: minted.access.token,
        refreshToken: minted.refresh.token,
        expiresIn: Math.floor(accessTtlMs / 1000),
        userId: grant.userId,
        sessionId: grant.sessionId
      })

      const ensureNotBlocked = Spans.fn("Sessions.ensureNotBlocked")(function* (userId: Snowflake.Snowflake) {
        const block = yield* blocks.find(userId)
        if (Option.isSome(block) && Block.isActive(block.value, yield* DateTime.now)) {
          return yield* new AccountBlocked({ message: Block.describe(block.value) })
        }
      })

      // Untraced: one per login, inside `Login.login`'s span (a traced function captures a stack
      // trace on each call).
      const start = Effect.fnUntraced(function* (
        userId: Snowflake.Snowflake,
        client: ClientInfo,
        passwordChangedAt: DateTime.Utc | null = null
      ) {
        const now = yield* DateTime.now
        const minted = yield* mintPair(now)
        const id = yield* ids.next
        yield* repo.create(
          {
            id,
            userId,
            client,
            createdAt: now,
            lastUsedAt: now,
            expiresAt: DateTime.add(now, { milliseconds: Duration.toMillis(config.sessionTtl) }),
            revokedAt: null,
            passwordChangedAt
          },
          minted.stored
        )
        return pairOf(minted, { sessionId: id, userId })
      })

      // Untraced for the reason `authenticate` is: clients call it every few minutes each.
      const refresh = Effect.fnUntraced(function* (refreshToken: Redacted.Redacted<string>) {
        if (tokens.kindOf(refreshToken) !== "refresh") return yield* new RefreshRejected()
        const now = yield* DateTime.now
        const minted = yield* mintPair(now)
        const rotation = yield* repo.rotate(yield* tokens.digest(refreshToken), minted.stored, now)
        if (rotation._tag === "Rotated") {
          // Rotated but not handed out: a blocked account's chain stops here.
          yield* ensureNotBlocked(rotation.grant.userId)
          return pairOf(minted, rotation.grant)
        }
        if (rotation._tag === "Reused") {
          yield* Effect.logWarning("a spent refresh token was used again; its session was ended", rotation.sessionId)
        }
        return yield* new RefreshRejected()
      })

      type Refused = TokenInvalid | TokenExpired | AccountBlocked
      /** The lookup's answer as the port gives it: refused, or the grant (touched when due). */
      const granted = (
        found: AccessLookup,
        now: DateTime.Utc,
        nowMs: number
      ): Effect.Effect<Authenticated, Refused> => {
        if (found._tag === "Expired") return Effect.fail(unstacked(() => new TokenExpired()))
        if (found._tag === "Unknown") return Effect.fail(unstacked(() => new TokenInvalid()))
        if (found.block !== null && Block.isActive(found.block, now)) {
          return Effect.fail(new AccountBlocked({ message: Block.describe(found.block) }))
        }
        const grant: Authenticated =
          found.account === undefined ? found.grant : { ...found.grant, account: found.account }
        return nowMs - DateTime.toEpochMillis(found.lastUsedAt) >= touchEveryMs
          ? Effect.as(repo.touch(found.grant.sessionId, now), grant)
          : Effect.succeed(grant)
      }
      // It runs on every authenticated request: untraced (a traced Effect.fn captures a call stack
      // and opens a span each time, a tenth of the server's time on GET /users/@me), and no
      // generator: a suspended one (its frame, its iterator) lives across the lookup's round trip
      // and gets promoted under load (docs/traps.md).
      const authenticate = (
        accessToken: Redacted.Redacted<string>,
        options?: { readonly withAccount?: boolean; readonly digest?: string | undefined }
      ): Effect.Effect<Authenticated, Refused> => {
        // Refusals without stack traces: unknown tokens are guessing traffic, answered cheaply.
        if (tokens.kindOf(accessToken) !== "access") return Effect.fail(unstacked(() => new TokenInvalid()))
        const withAccount = options?.withAccount === true
        return Effect.withFiber((fiber) => {
          const nowMs = fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
          const now = DateTime.makeUnsafe(nowMs)
          const lookup = (digest: string) =>
            Effect.flatMap(repo.findAccess(digest, now, withAccount), (found) => granted(found, now, nowMs))
          const digest = options?.digest
          return digest !== undefined ? lookup(digest) : Effect.flatMap(tokens.digest(accessToken), lookup)
        })
      }

      return Sessions.of({
        start,
        refresh,
        authenticate,
        ensureNotBlocked,
        usable: (sessionIds) =>
          Effect.flatMap(DateTime.now, (now) =>
            Effect.map(
              repo.findLive(sessionIds, now),
              (live) =>
                new Set(
                  live
                    .filter((found) => found.block === null || !Block.isActive(found.block, now))
                    .map((found) => found.sessionId)
                )
            )
          ),
        list: (userId) => Effect.flatMap(DateTime.now, (now) => repo.listLive(userId, now)),
        end: (sessionId) => Effect.flatMap(DateTime.now, (now) => repo.revoke(sessionId, now)),
        endOthers: (userId, keep) => Effect.flatMap(DateTime.now, (now) => repo.revokeAll(userId, keep, now)),
        endAll: (userId) => Effect.flatMap(DateTime.now, (now) => repo.revokeAll(userId, undefined, now))
      })
    })
  )
}
