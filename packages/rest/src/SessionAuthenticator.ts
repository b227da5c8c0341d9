/**
 * The Authorization middleware's answer from the accounts domain: `Bearer` access tokens are looked
 * up in their sessions. Bot tokens arrive with the bots work; until then none is valid.
 */
import { Sessions } from "@veche/auth"
import { unstacked } from "@veche/errors"
import { Effect, Layer } from "effect"
import { Authenticator, TokenInvalid } from "./Authenticator.ts"

export const layer: Layer.Layer<Authenticator, never, Sessions.Sessions> = Layer.effect(
  Authenticator,
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    return Authenticator.of({
      authenticate: (scheme, token) => {
        if (scheme !== "Bearer") return Effect.fail(unstacked(() => new TokenInvalid()))
        // The sessions' token errors are the port's own (one set): they pass through as they are.
        return sessions
          .authenticate(token)
          .pipe(Effect.map((grant) => ({ kind: "user" as const, userId: grant.userId, sessionId: grant.sessionId })))
      }
    })
  })
)
