/**
 * The Authorization middleware's answer from the domains: `Bearer` access tokens are looked up in
 * the accounts domain's sessions, `Bot` tokens in the applications domain (the bot's user has its
 * application's id). A bot token nobody holds (never minted, reset, or its application deleted) is
 * invalid, as an unknown access token is. A `Bearer` token with the OAuth provider's prefix is the
 * provider's to judge (a user principal marked with its grant; the middleware admits it only where
 * a route takes OAuth tokens).
 */

import type { Principal } from "@veche/api"
import { Applications } from "@veche/applications"
import { AuthAccountDetails, Sessions } from "@veche/auth"
import { unstacked } from "@veche/errors"
import { OAuthSecrets, OAuthTokens } from "@veche/oauth"
import { Tallies } from "@veche/platform"
import { DateTime, Effect, Layer, Option, type Redacted } from "effect"
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
    // A user's request makes them active today (the statistics; the store counts each once a day).
    const session = (token: Redacted.Redacted<string>, withAccount: boolean, digest: string | undefined) =>
      sessions
        .authenticate(token, { withAccount, digest })
        .pipe(Effect.tap((grant) => Effect.flatMap(DateTime.now, (now) => tallies.active(grant.userId, now))))
    const userOf = (grant: Sessions.Authenticated): Principal.Principal => ({
      kind: "user",
      userId: grant.userId,
      sessionId: grant.sessionId
    })
    const oauthUser = (token: Redacted.Redacted<string>) =>
      Effect.map(
        oauth.authenticate(token),
        (grant): Principal.Principal => ({
          kind: "user",
          userId: grant.userId,
          oauth: { applicationId: grant.applicationId, scopes: grant.scopes }
        })
      )
    return Authenticator.of({
      authenticate: (scheme, token, digest) => {
        if (scheme === "Bot") {
          return Effect.flatMap(applications.authenticateBot(token, digest), (found) =>
            Option.isSome(found)
              ? Effect.succeed({ kind: "bot" as const, userId: found.value.id })
              : Effect.fail(unstacked(() => new TokenInvalid()))
          )
        }
        if (OAuthSecrets.isAccessToken(token)) return oauthUser(token)
        // The sessions' token errors are the port's own (one set): they pass through as they are.
        return Effect.map(session(token, false, digest), userOf)
      },
      authenticateReadingCurrentUser: (token, digest) => {
        if (OAuthSecrets.isAccessToken(token)) {
          return Effect.map(oauthUser(token), (principal) => ({ principal, prefetched: undefined }))
        }
        return Effect.map(session(token, true, digest), (grant) => ({
          principal: userOf(grant),
          prefetched:
            grant.account === undefined
              ? undefined
              : {
                  userId: grant.userId,
                  details: Option.map(grant.account.snapshot, AuthAccountDetails.detailsOf),
                  guildIds: grant.account.guildIds,
                  premiumType: grant.account.premiumType
                }
        }))
      }
    })
  })
)
