/**
 * The port the Authorization middleware asks "whose token is this?". The accounts domain implements
 * it over its session store; until a host supplies that, `layerNone` is the truthful answer: no
 * credential is valid, so every authenticated route answers 401.
 */
import type { Principal } from "@veche/api"
import { SessionsErrors } from "@veche/auth"
import type { CurrentUserPrefetch } from "@veche/users"
import { Clock, Context, Effect, Layer, Redacted } from "effect"

export type Scheme = "Bearer" | "Bot"

/**
 * Why a token is not accepted: the accounts domain's own errors (one set, declared in
 * `SessionsErrors`), so its sessions answer the port as they are. Re-exported here for hosts that
 * implement the port themselves. What each answers on the wire: `handlers/AuthRefusals.ts`.
 */
export const { TokenInvalid, TokenExpired, AccountBlocked } = SessionsErrors
export type TokenInvalid = SessionsErrors.TokenInvalid
export type TokenExpired = SessionsErrors.TokenExpired
export type AccountBlocked = SessionsErrors.AccountBlocked

export class Authenticator extends Context.Service<
  Authenticator,
  {
    /**
     * `digest`: the token's `OpaqueSecrets.digestOf`, which the middleware computed once for the
     * request; an implementation that looks tokens up by that digest uses it rather than hashing
     * the token again (it must still look the token up).
     */
    readonly authenticate: (
      scheme: Scheme,
      token: Redacted.Redacted<string>,
      digest?: string
    ) => Effect.Effect<Principal.Principal, TokenInvalid | TokenExpired | AccountBlocked>
    /**
     * A `Bearer` token on a route that shows the caller's account (`ReadsCurrentUser`): the same
     * answer as `authenticate`, with the account when the lookup read it in the same step (then the
     * route reads nothing more). Optional: without it the middleware asks `authenticate`.
     */
    readonly authenticateReadingCurrentUser?: (
      token: Redacted.Redacted<string>,
      digest?: string
    ) => Effect.Effect<
      { readonly principal: Principal.Principal; readonly prefetched: CurrentUserPrefetch.Prefetched | undefined },
      TokenInvalid | TokenExpired | AccountBlocked
    >
  }
>()("@veche/rest/Authenticator") {
  /** No credential is valid: the state of a host with no accounts domain wired in. */
  static readonly layerNone: Layer.Layer<Authenticator> = Layer.succeed(
    Authenticator,
    Authenticator.of({ authenticate: () => Effect.fail(new TokenInvalid()) })
  )

  /**
   * A fixed table of tokens, for tests of route policy that must not depend on the accounts
   * domain. Expiry is read from the Clock, so a test clock moves tokens past it.
   */
  static readonly layerStatic = (
    tokens: ReadonlyArray<{
      readonly scheme: Scheme
      readonly token: string
      readonly principal: Principal.Principal
      readonly expiresAtMs?: number | undefined
    }>
  ): Layer.Layer<Authenticator> =>
    Layer.succeed(
      Authenticator,
      Authenticator.of({
        authenticate: (scheme, token) =>
          Effect.flatMap(
            Clock.currentTimeMillis,
            (now): Effect.Effect<Principal.Principal, TokenInvalid | TokenExpired> => {
              const entry = tokens.find((t) => t.scheme === scheme && t.token === Redacted.value(token))
              if (entry === undefined) return Effect.fail(new TokenInvalid())
              if (entry.expiresAtMs !== undefined && now >= entry.expiresAtMs) return Effect.fail(new TokenExpired())
              return Effect.succeed(entry.principal)
            }
          )
      })
    )

  /**
   * Asks `first`, and when it does not know the token (TokenInvalid) asks `fallback`: a fixed table
   * of bot tokens in front of the host's real sessions, for tests that need both. An expired or
   * blocked answer from `first` stands.
   */
  static readonly layerFirstOf = <E, R>(
    first: Layer.Layer<Authenticator>,
    fallback: Layer.Layer<Authenticator, E, R>
  ): Layer.Layer<Authenticator, E, R> =>
    Layer.effect(
      Authenticator,
      Effect.gen(function* () {
        const primary = Context.get(yield* Layer.build(first), Authenticator)
        const secondary = Context.get(yield* Layer.build(fallback), Authenticator)
        return Authenticator.of({
          authenticate: (scheme, token, digest) =>
            primary
              .authenticate(scheme, token, digest)
              .pipe(Effect.catchTag("TokenInvalid", () => secondary.authenticate(scheme, token, digest)))
        })
      })
    )
}
