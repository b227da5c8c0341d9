/**
 * The Authorization middleware (the tag is `@veche/api`'s `Authorization`): `Authorization: Bearer
 * <token>` for users, `Bot <token>` for bots. Missing or expired credentials answer 401 40001
 * (clients then log in or refresh); anything malformed or not valid answers 401 50014. Bot libraries drop their token on any 401, which is
 * what we want for both. Each outcome is told to `KnownTokens`, so the rate limiter gives a header
 * its own counters only after it authenticated. The header's token is digested once per request
 * (`RequestCredentials`) and the digest handed to the lookup; the lookup itself runs every time.
 *
 * OAuth access tokens (`Bearer voa_…`) authenticate only on routes annotated `AdmitsOAuthTokens`
 * (GET /users/@me); on every other route they answer exactly as an invalid token (401 50014). The
 * annotation is read only for such a principal, so session and bot requests pay nothing for it.
 *
 * On a route annotated `ReadsCurrentUser` (GET /users/@me) a `Bearer` token's lookup also reads the
 * caller's account when the authenticator can (`authenticateReadingCurrentUser`), and the request
 * gets it as `CurrentUserPrefetch`: the route then costs one database round trip, not two.
 */
import { Authorization, Principal } from "@veche/api"
import { type Banned, InvalidAuthenticationToken, Unauthorized, unstacked } from "@veche/errors"
import { CurrentUserPrefetch } from "@veche/users"
import { Clock, Context, Effect, Layer, Redacted, Result } from "effect"
import { HttpServerRequest } from "effect/http"
import type { HttpApiEndpoint } from "effect/http-api"
import { Authenticator } from "./Authenticator.ts"
import * as AuthRefusals from "./handlers/AuthRefusals.ts"
import { KnownTokens } from "./KnownTokens.ts"
import * as RequestCredentials from "./RequestCredentials.ts"

interface Authenticated {
  readonly principal: Principal.Principal
  readonly prefetched: CurrentUserPrefetch.Prefetched | undefined
}
type Refusal = Unauthorized | InvalidAuthenticationToken | Banned
type Outcome = Result.Result<Authenticated, Refusal>

const withoutPrefetch = (principal: Principal.Principal): Authenticated => ({ principal, prefetched: undefined })

export const layer: Layer.Layer<Authorization.Authorization, never, Authenticator | KnownTokens> = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function* () {
    const authenticator = yield* Authenticator
    const known = yield* KnownTokens

    const readingCurrentUser = authenticator.authenticateReadingCurrentUser
    const authenticate = (
      credentials: RequestCredentials.Credentials,
      readsCurrentUser: boolean,
      decoded: Redacted.Redacted<string> | undefined
    ): Effect.Effect<Outcome> => {
      // Refusals without stack traces: token guessing is traffic to answer cheaply.
      if (credentials === "missing") return Effect.succeed(Result.fail(unstacked(() => new Unauthorized())))
      if (credentials === "malformed") {
        return Effect.succeed(Result.fail(unstacked(() => new InvalidAuthenticationToken())))
      }
      // Expired → 401 40001, not valid → 401 50014, blocked → 403 40007: the accounts domain's table.
      // HttpApi's own decoding of a `Bearer` header already made this token's Redacted: reused, as
      // each one is a registry insert (0.7 µs).
      const token =
        decoded !== undefined && Redacted.value(decoded) === credentials.token
          ? decoded
          : Redacted.make(credentials.token)
      const authenticated =
        readsCurrentUser && credentials.scheme === "Bearer" && readingCurrentUser !== undefined
          ? readingCurrentUser(token, credentials.digest)
          : Effect.map(authenticator.authenticate(credentials.scheme, token, credentials.digest), withoutPrefetch)
      // One frame (not `mapError` then `result`): it waits on the lookup's round trip.
      return Effect.match(authenticated, {
        onFailure: (error): Outcome => Result.fail(AuthRefusals.refuse(error)),
        onSuccess: (found): Outcome => Result.succeed(found)
      })
    }

    // An OAuth token where the route does not take one, or without the scope it asks, is no
    // credential at all here.
    const admitted = (outcome: Outcome, endpoint: HttpApiEndpoint.Top): Outcome => {
      if (Result.isFailure(outcome) || outcome.success.principal.oauth === undefined) return outcome
      const scope = Context.get(endpoint.annotations, Authorization.AdmitsOAuthTokens)
      return scope !== undefined && outcome.success.principal.oauth.scopes.includes(scope)
        ? outcome
        : Result.fail(unstacked(() => new InvalidAuthenticationToken()))
    }

    // HttpApi tries one function per security scheme in turn. The first does the whole job from
    // the raw header (so `Bot` tokens, malformed and missing headers are classified exactly once)
    // and leaves a failed outcome for the second, which only repeats it.
    const outcomes = new WeakMap<HttpServerRequest.HttpServerRequest, Outcome>()
    const run =
      (reuse: boolean) =>
      <A, E, R>(
        httpEffect: Effect.Effect<A, E, R>,
        options: { readonly endpoint: HttpApiEndpoint.Top; readonly credential?: Redacted.Redacted<string> }
      ) => {
        // HttpApi calls this on each request, with the scheme's decoded credential. No generator:
        // the request's handler runs inside what this returns, and a suspended generator (its
        // locals, its iterator) would live as long as the handler, past a young-generation
        // collection or two on a slow request, and be promoted.
        const readsCurrentUser = Context.get(options.endpoint.annotations, Authorization.ReadsCurrentUser)
        type Guarded = Effect.Effect<A, E | Refusal, Exclude<R, Principal.CurrentPrincipal>>
        return Effect.withFiber((fiber): Guarded => {
          const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
          const reused = reuse ? outcomes.get(request) : undefined
          const credentials = RequestCredentials.of(request)
          const presented = typeof credentials === "string" ? undefined : credentials
          const decide = (found: Outcome): Guarded => {
            const outcome = admitted(found, options.endpoint)
            if (Result.isFailure(outcome)) {
              outcomes.set(request, outcome)
              if (reused === undefined && presented !== undefined) known.forget(presented.known)
              return Effect.fail(outcome.failure)
            }
            if (presented !== undefined) {
              known.remember(presented.known, fiber.getRef(Clock.Clock).currentTimeMillisUnsafe())
            }
            const { principal, prefetched } = outcome.success
            const withPrincipal = Effect.provideService(httpEffect, Principal.CurrentPrincipal, principal)
            return prefetched === undefined
              ? withPrincipal
              : Effect.provideService(withPrincipal, CurrentUserPrefetch.CurrentUserPrefetch, prefetched)
          }
          return reused !== undefined
            ? decide(reused)
            : Effect.flatMap(authenticate(credentials, readsCurrentUser, options.credential), decide)
        })
      }

    return Authorization.Authorization.of({ bearer: run(false), bot: run(true) })
  })
)
