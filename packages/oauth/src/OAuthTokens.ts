/**
 * The token endpoint's grants and revocation, and the check of an OAuth access token on a request.
 *
 * A client proves itself by its secret (confidential) or, for a code issued with a PKCE S256
 * challenge, by the verifier alone (public). A code is spent before it is judged, so a wrong
 * verifier, redirect URI or client burns it; a second use of a code answers invalid_grant and
 * revokes what the first use issued. Refresh tokens are bound to the grant's client, rotate on every
 * use, and a spent one used again revokes the whole grant (the chain). A blocked account gets no
 * tokens and its tokens stop working (the accounts domain's block check).
 */
import { type Application, Applications } from "@veche/applications"
import { SessionsErrors as Errors, Sessions, type SessionsErrors } from "@veche/auth"
import { unstacked } from "@veche/errors"
import { Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { InvalidClient, InvalidGrant } from "./OAuthErrors.ts"
import { ACCESS_TOKEN_SECONDS, type Grant, type Scope, type StoredPair } from "./OAuthGrant.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { kindOf, type Minted, OAuthSecrets } from "./OAuthSecrets.ts"

/** How the client identified itself: its id, and its secret when it sent one (body or Basic). */
export interface ClientProof {
  readonly clientId: string
  readonly secret: Option.Option<Redacted.Redacted<string>>
}

export interface CodeExchange {
  readonly code: Redacted.Redacted<string>
  readonly redirectUri?: string | undefined
  readonly codeVerifier?: string | undefined
}

/** A token answer: the pair, seconds until the access token expires, and the scopes granted. */
export interface Issued {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Redacted.Redacted<string>
  readonly expiresIn: number
  readonly scopes: ReadonlyArray<Scope>
}

/** RFC 7636: 43–128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

const isSnowflake = Schema.is(Snowflake.Snowflake)

interface Client {
  readonly application: Application.Application
  readonly confidential: boolean
}

export class OAuthTokens extends Context.Service<
  OAuthTokens,
  {
    readonly exchangeCode: (
      client: ClientProof,
      exchange: CodeExchange
    ) => Effect.Effect<Issued, InvalidClient | InvalidGrant>
    readonly refresh: (
      client: ClientProof,
      refreshToken: Redacted.Redacted<string>
    ) => Effect.Effect<Issued, InvalidClient | InvalidGrant>
    /**
     * Ends the grant of an access or refresh token of this client; any other token is left alone.
     * Without a client (the spec's revocation takes only `token`), the holder of a token ends it.
     */
    readonly revoke: (
      client: Option.Option<ClientProof>,
      token: Redacted.Redacted<string>
    ) => Effect.Effect<void, InvalidClient>
    /** The grant behind an OAuth access token (the Authorization middleware's question). */
    readonly authenticate: (
      accessToken: Redacted.Redacted<string>
    ) => Effect.Effect<Grant, SessionsErrors.TokenInvalid | SessionsErrors.TokenExpired | SessionsErrors.AccountBlocked>
  }
>()("@veche/oauth/OAuthTokens") {
  static readonly layer: Layer.Layer<
    OAuthTokens,
    never,
    OAuthRepo | OAuthSecrets | Applications.Applications | Sessions.Sessions | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    OAuthTokens,
    Effect.gen(function* () {
      const repo = yield* OAuthRepo
      const secrets = yield* OAuthSecrets
      const applications = yield* Applications.Applications
      const sessions = yield* Sessions.Sessions
      const ids = yield* Snowflake.SnowflakeGenerator

      const authenticateClient = Effect.fnUntraced(function* (proof: ClientProof) {
        if (!isSnowflake(proof.clientId)) return yield* new InvalidClient({ description: "Unknown client." })
        const id = Snowflake.Snowflake.make(proof.clientId)
        if (Option.isSome(proof.secret)) {
          const found = yield* applications.authenticateClient(id, proof.secret.value)
          if (Option.isNone(found)) return yield* new InvalidClient({ description: "Client authentication failed." })
          return { application: found.value, confidential: true } satisfies Client
        }
        const application = yield* applications
          .find(id)
          .pipe(
            Effect.catchTag("NoSuchApplication", () =>
              Effect.fail(new InvalidClient({ description: "Unknown client." }))
            )
          )
        return { application, confidential: false } satisfies Client
      })

      const mintPair = Effect.fnUntraced(function* (now: DateTime.Utc) {
        const access: Minted = yield* secrets.mint("access")
        const refresh: Minted = yield* secrets.mint("refresh")
        const stored: StoredPair = {
          access: { digest: access.digest, expiresAt: DateTime.add(now, { seconds: ACCESS_TOKEN_SECONDS }) },
          refresh: { digest: refresh.digest }
        }
        return { access, refresh, stored }
      })

      const issued = (pair: { readonly access: Minted; readonly refresh: Minted }, grant: Grant): Issued => ({
        accessToken: pair.access.token,
        refreshToken: pair.refresh.token,
        expiresIn: ACCESS_TOKEN_SECONDS,
        scopes: grant.scopes
      })

      const notBlocked = (userId: Snowflake.Snowflake) =>
        sessions
          .ensureNotBlocked(userId)
          .pipe(Effect.mapError((blocked) => new InvalidGrant({ description: blocked.message })))

      const exchangeCode = Spans.fn("OAuthTokens.exchangeCode")(function* (proof: ClientProof, exchange: CodeExchange) {
        const client = yield* authenticateClient(proof)
        if (kindOf(exchange.code) !== "code")
          return yield* new InvalidGrant({ description: "Invalid authorization code." })
        const now = yield* DateTime.now
        const redemption = yield* repo.redeemCode(
          yield* secrets.digest(exchange.code),
          { id: yield* ids.next, confidential: client.confidential },
          now
        )
        if (redemption._tag === "Replayed") {
          yield* Effect.logWarning("an authorization code was used again; the tokens of its first use were revoked")
          return yield* new InvalidGrant({ description: "Invalid authorization code." })
        }
        if (redemption._tag === "Unknown")
          return yield* new InvalidGrant({ description: "Invalid authorization code." })
        const { code, grant } = redemption
        // The code is spent: whatever is wrong from here on burns it (its grant ends unused).
        const judged = Effect.gen(function* () {
          if (code.applicationId !== client.application.id) {
            return yield* new InvalidGrant({ description: "Invalid authorization code." })
          }
          if (code.redirectUri !== null && exchange.redirectUri !== code.redirectUri) {
            return yield* new InvalidGrant({ description: 'Invalid "redirect_uri" in request.' })
          }
          if (code.codeChallenge === null) {
            if (exchange.codeVerifier !== undefined) {
              return yield* new InvalidGrant({ description: "The code was issued without a code_challenge." })
            }
            if (!client.confidential)
              return yield* new InvalidClient({ description: "Client authentication required." })
          } else {
            const verifier = exchange.codeVerifier
            if (verifier === undefined || !VERIFIER.test(verifier)) {
              return yield* new InvalidGrant({ description: "Invalid code_verifier." })
            }
            if ((yield* secrets.challengeOf(verifier)) !== code.codeChallenge) {
              return yield* new InvalidGrant({ description: "Invalid code_verifier." })
            }
          }
          yield* notBlocked(code.userId)
        })
        yield* judged.pipe(Effect.tapError(() => repo.revokeGrant(grant.id, now)))
        const pair = yield* mintPair(now)
        yield* repo.addPair(grant.id, pair.stored)
        return issued(pair, grant)
      })

      const refresh = Spans.fn("OAuthTokens.refresh")(function* (
        proof: ClientProof,
        refreshToken: Redacted.Redacted<string>
      ) {
        const client = yield* authenticateClient(proof)
        const invalid = new InvalidGrant({ description: "Invalid refresh token." })
        if (kindOf(refreshToken) !== "refresh") return yield* invalid
        const digest = yield* secrets.digest(refreshToken)
        const found = yield* repo.findRefreshGrant(digest)
        // Another client's token is refused and left as it is: the client binding, not a reuse.
        if (Option.isNone(found) || found.value.applicationId !== client.application.id) return yield* invalid
        if (found.value.confidential && !client.confidential) {
          return yield* new InvalidClient({ description: "Client authentication required." })
        }
        yield* notBlocked(found.value.userId)
        const now = yield* DateTime.now
        const pair = yield* mintPair(now)
        const rotation = yield* repo.rotate(digest, pair.stored, now)
        if (rotation._tag === "Rotated") return issued(pair, rotation.grant)
        if (rotation._tag === "Reused") {
          yield* Effect.logWarning("a spent OAuth refresh token was used again; its grant was revoked")
        }
        return yield* invalid
      })

      const revoke = Spans.fn("OAuthTokens.revoke")(function* (
        proof: Option.Option<ClientProof>,
        token: Redacted.Redacted<string>
      ) {
        const client = Option.isSome(proof) ? (yield* authenticateClient(proof.value)).application.id : null
        const kind = kindOf(token)
        if (kind !== "access" && kind !== "refresh") return
        yield* repo.revokeByToken(yield* secrets.digest(token), client, yield* DateTime.now)
      })

      // Untraced, as Sessions.authenticate: it runs on each request an OAuth token makes.
      const authenticate = Effect.fnUntraced(function* (accessToken: Redacted.Redacted<string>) {
        if (kindOf(accessToken) !== "access") return yield* unstacked(() => new Errors.TokenInvalid())
        const found = yield* repo.findAccess(yield* secrets.digest(accessToken), yield* DateTime.now)
        if (found._tag === "Expired") return yield* unstacked(() => new Errors.TokenExpired())
        if (found._tag === "Unknown") return yield* unstacked(() => new Errors.TokenInvalid())
        yield* sessions.ensureNotBlocked(found.grant.userId)
        return found.grant
      })

      return OAuthTokens.of({ exchangeCode, refresh, revoke, authenticate })
    })
  )
}
