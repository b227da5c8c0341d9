/** Handlers of the Auth group of a signed-in user: logout, the session list, two-factor authentication. */

import { Principal, RestApi } from "@veche/api"
import { Mfa, Sessions } from "@veche/auth"
import { DateTime, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import * as MfaHandlers from "./MfaHandlers.ts"

export const layer: GroupLayer.AuthorizedNoStore<"auth", Sessions.Sessions | Mfa.Mfa> = HttpApiBuilder.group(
  RestApi.RestApi,
  "auth",
  (handlers) =>
    Effect.gen(function* () {
      const sessions = yield* Sessions.Sessions
      const mfa = MfaHandlers.make(yield* Mfa.Mfa)
      return handlers
        .handle("logout", () =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            if (user.sessionId !== undefined) yield* sessions.end(user.sessionId)
          })
        )
        .handle("sessions", () =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
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
            const user = yield* Principal.requireUser
            if (user.sessionId === undefined) yield* sessions.endAll(user.userId)
            else yield* sessions.endOthers(user.userId, user.sessionId)
          })
        )
        .handle("mfaState", () => mfa.state())
        .handle("enableTotp", ({ payload }) => mfa.enableTotp(payload))
        .handle("mfaCodes", ({ payload }) => mfa.newBackupCodes(payload))
        .handle("disableTotp", ({ payload }) => mfa.disableTotp(payload))
    })
)
