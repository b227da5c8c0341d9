/**
 * The Authorization middleware's answer from the accounts domain: `Bearer` access tokens are looked
 * up in their sessions. Bot tokens arrive with the bots work; until then none is valid.
 */
import { Sessions } from "@veche/auth"
import { unstacked } from "@veche/errors"
import { Effect, Layer } from "effect"
import { AccountBlocked, Authenticator, TokenExpired, TokenInvalid } from "./Authenticator.ts"

export const layer: Layer.Layer<Authenticator, never, Sessions.Sessions> = Layer.effect(
  Authenticator,
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    return Authenticator.of({
      authenticate: (scheme, token) => {
        if (scheme !== "Bearer") return Effect.fail(unstacked(() => new TokenInvalid()))
        return sessions.authenticate(token).pipe(
          Effect.map((grant) => ({ kind: "user" as const, userId: grant.userId, sessionId: grant.sessionId })),
          Effect.catchTags({
            TokenExpired: () => Effect.fail(unstacked(() => new TokenExpired())),
            TokenInvalid: () => Effect.fail(unstacked(() => new TokenInvalid())),
            AccountBlocked: (e) => Effect.fail(new AccountBlocked({ message: e.message }))
          })
        )
      }
    })
  })
)
