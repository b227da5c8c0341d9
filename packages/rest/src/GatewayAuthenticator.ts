/**
 * The gateway's GatewayIdentity answered by the same Authenticator the REST routes use. An IDENTIFY
 * carries its token bare (as the platform's clients send it), so a token is tried as a bot's and
 * then as a user's access token; a user principal without a login session (an OAuth access token)
 * is refused, as are expired and blocked tokens.
 */
import { GatewayIdentity } from "@veche/gateway"
import { Effect, Layer, Option } from "effect"
import { Authenticator } from "./Authenticator.ts"

/**
 * Applications keep no flags yet (`GET /applications/@me` answers `flags: 0`), so no bot may ask
 * for a privileged intent until they do (close 4014).
 */
const APPLICATION_FLAGS = 0

export const layer: Layer.Layer<GatewayIdentity.GatewayIdentity, never, Authenticator> = Layer.effect(
  GatewayIdentity.GatewayIdentity,
  Effect.map(Effect.service(Authenticator), (authenticator) =>
    GatewayIdentity.GatewayIdentity.of({
      identify: (token) =>
        authenticator.authenticate("Bot", token).pipe(
          Effect.map(
            (principal): Option.Option<GatewayIdentity.Identity> =>
              Option.some({ kind: "bot", userId: principal.userId, applicationFlags: APPLICATION_FLAGS })
          ),
          Effect.catchTag("TokenInvalid", () =>
            authenticator
              .authenticate("Bearer", token)
              .pipe(
                Effect.map(
                  (principal): Option.Option<GatewayIdentity.Identity> =>
                    principal.kind === "user" && principal.sessionId !== undefined
                      ? Option.some({ kind: "user", userId: principal.userId, applicationFlags: 0 })
                      : Option.none()
                )
              )
          ),
          Effect.catch(() => Effect.succeedNone)
        )
    })
  )
)
