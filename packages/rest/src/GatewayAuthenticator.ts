/**
 * The gateway's GatewayIdentity answered by the same Authenticator the REST routes use. An IDENTIFY
 * carries its token bare (as the platform's clients send it), so its registered prefix says whether
 * it is a bot's token or a login session's access token; any other kind (OAuth access tokens among
 * them), an expired or a blocked token is refused.
 */
import { Applications } from "@veche/applications"
import { GatewayIdentity } from "@veche/gateway"
import { TokenPrefixes } from "@veche/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { Authenticator } from "./Authenticator.ts"

export const layer: Layer.Layer<GatewayIdentity.GatewayIdentity, never, Authenticator | Applications.Applications> =
  Layer.effect(
    GatewayIdentity.GatewayIdentity,
    Effect.gen(function* () {
      const authenticator = yield* Authenticator
      const applications = yield* Applications.Applications
      return GatewayIdentity.GatewayIdentity.of({
        identify: (token) => {
          const value = Redacted.value(token)
          // The prefix says which kind a token claims to be (it must still be found by its digest).
          if (value.startsWith(TokenPrefixes.TOKEN_PREFIXES.bot))
            return authenticator.authenticate("Bot", token).pipe(
              // its application's flags say which privileged intents it may ask for
              Effect.flatMap((principal) => applications.ofBot(principal.userId)),
              Effect.map(
                (application): Option.Option<GatewayIdentity.Identity> =>
                  Option.some({ kind: "bot", userId: application.id, applicationFlags: application.flags })
              ),
              Effect.catch(() => Effect.succeedNone)
            )
          // A login session's access token only: OAuth access tokens (and every other kind) are refused.
          if (value.startsWith(TokenPrefixes.TOKEN_PREFIXES.access))
            return authenticator.authenticate("Bearer", token).pipe(
              Effect.map(
                (principal): Option.Option<GatewayIdentity.Identity> =>
                  principal.kind === "user" && principal.sessionId !== undefined
                    ? Option.some({ kind: "user", userId: principal.userId, applicationFlags: 0 })
                    : Option.none()
              ),
              Effect.catch(() => Effect.succeedNone)
            )
          return Effect.succeedNone
        }
      })
    })
  )
