/** Handlers of the Auth group (sessions part). */
import { Sessions } from "@veche/auth"
import { InvalidAuthenticationToken } from "@veche/errors"
import { DateTime, Effect, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { requireUser } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"

export const toWire = (pair: Sessions.TokenPair) => ({
  access_token: Redacted.value(pair.accessToken),
  refresh_token: Redacted.value(pair.refreshToken),
  token_type: "Bearer" as const,
  expires_in: pair.expiresIn,
  user_id: pair.userId
})

export const layer = HttpApiBuilder.group(RestApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    return handlers
      .handle("refresh", ({ payload }) =>
        sessions.refresh(Redacted.make(payload.refresh_token)).pipe(
          Effect.map(toWire),
          Effect.catchTag("RefreshRejected", () => Effect.fail(new InvalidAuthenticationToken()))
        )
      )
      .handle("logout", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          if (user.sessionId !== undefined) yield* sessions.end(user.sessionId)
        })
      )
      .handle("sessions", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const live = yield* sessions.list(user.userId)
          return live.map((session) => ({
            id: session.id,
            current: session.id === user.sessionId,
            created_at: DateTime.formatIso(session.createdAt),
            last_used_at: DateTime.formatIso(session.lastUsedAt),
            client_info: {
              user_agent: session.client.userAgent,
              ip: session.client.address,
              country: session.client.country
            }
          }))
        })
      )
      .handle("endOtherSessions", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          if (user.sessionId === undefined) yield* sessions.endAll(user.userId)
          else yield* sessions.endOthers(user.userId, user.sessionId)
        })
      )
  })
)
