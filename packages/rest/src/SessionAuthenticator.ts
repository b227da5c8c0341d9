/**
 * The Authorization middleware's answer from the domains: `Bearer` access tokens are looked up in
 * the accounts domain's sessions, `Bot` tokens in the applications domain (the bot's user has its
 * application's id). A bot token nobody holds (never minted, reset, or its application deleted) is
 * invalid, as an unknown access token is. A `Bearer` token with the OAuth provider's prefix is the
 * provider's to judge (a user principal marked with its grant; the middleware admits it only where
 * a route takes OAuth tokens).
 */
import { Applications } from "@veche/applications"
import { Sessions } from "@veche/auth"
import { unstacked } from "@veche/errors"
import { OAuthSecrets, OAuthTokens } from "@veche/oauth"
import { Tallies } from "@veche/platform"
import { DateTime, Effect, Layer, Option } from "effect"
import { Authenticator, TokenInvalid } from "./Authenticator.ts"

export const layer: Layer.Layer<
  Authenticator,
  never,
  Sessions.Sessions | Applications.Applications | OAuthTokens.OAuthTokens
> = Layer.effect(
  Authenticator,
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    const applications = yield* Applications.Applications
    const oauth = yield* OAuthTokens.OAuthTokens
    const tallies = yield* Tallies.Tallies
    return Authenticator.of({
      authenticate: (scheme, token) => {
        if (scheme === "Bot") {
          return Effect.flatMap(applications.authenticateBot(token), (found) =>
            Option.isSome(found)
              ? Effect.succeed({ kind: "bot" as const, userId: found.value.id })
              : Effect.fail(unstacked(() => new TokenInvalid()))
          )
        }
        if (OAuthSecrets.isAccessToken(token)) {
          return Effect.map(oauth.authenticate(token), (grant) => ({
            kind: "user" as const,
            userId: grant.userId,
            oauth: { applicationId: grant.applicationId, scopes: grant.scopes }
          }))
        }
        // The sessions' token errors are the port's own (one set): they pass through as they are.
        return sessions.authenticate(token).pipe(
          // A user's request makes them active today (the statistics; the store counts each once a day).
          Effect.tap((grant) => Effect.flatMap(DateTime.now, (now) => tallies.active(grant.userId, now))),
          Effect.map((grant) => ({ kind: "user" as const, userId: grant.userId, sessionId: grant.sessionId }))
        )
      }
    })
  })
)
