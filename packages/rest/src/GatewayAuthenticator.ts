/**
 * The gateway's GatewayIdentity answered by the same Authenticator the REST routes use. An IDENTIFY
 * carries its token bare (as the platform's clients send it), so its registered prefix says whether
 * it is a bot's token or a login session's access token; any other kind (OAuth access tokens among
 * them), an expired or a blocked token is refused.
 *
 * An open session rests on what the token proved: a user's login session (asked of the accounts
 * domain, many at once, whatever access token the client holds by now) or a bot's token (still its
 * bot's, asked of the applications domain by its digest).
 */
import { Applications } from "@veche/applications"
import { Sessions } from "@veche/auth"
import { GatewayIdentity } from "@veche/gateway"
import { OpaqueSecrets, type Snowflake, TokenPrefixes } from "@veche/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { Authenticator } from "./Authenticator.ts"

export const layer: Layer.Layer<
  GatewayIdentity.GatewayIdentity,
  never,
  Authenticator | Applications.Applications | Sessions.Sessions
> = Layer.effect(
  GatewayIdentity.GatewayIdentity,
  Effect.gen(function* () {
    const authenticator = yield* Authenticator
    const applications = yield* Applications.Applications
    const sessions = yield* Sessions.Sessions

    return GatewayIdentity.GatewayIdentity.of({
      identify: (token) => {
        const value = Redacted.value(token)
        // The prefix says which kind a token claims to be (it must still be found by its digest).
        if (value.startsWith(TokenPrefixes.TOKEN_PREFIXES.bot)) {
          const tokenDigest = OpaqueSecrets.digestOf(value)
          return authenticator.authenticate("Bot", token, tokenDigest).pipe(
            // its application's flags say which privileged intents it may ask for
            Effect.flatMap((principal) => applications.ofBot(principal.userId)),
            Effect.map(
              (application): Option.Option<GatewayIdentity.Identity> =>
                Option.some({
                  kind: "bot",
                  userId: application.id,
                  applicationFlags: application.flags,
                  credential: { kind: "bot", tokenDigest }
                })
            ),
            Effect.catch(() => Effect.succeedNone)
          )
        }
        // A login session's access token only: OAuth access tokens (and every other kind) are refused.
        if (value.startsWith(TokenPrefixes.TOKEN_PREFIXES.access))
          return authenticator.authenticate("Bearer", token).pipe(
            Effect.map(
              (principal): Option.Option<GatewayIdentity.Identity> =>
                principal.kind === "user" && principal.sessionId !== undefined
                  ? Option.some({
                      kind: "user",
                      userId: principal.userId,
                      applicationFlags: 0,
                      credential: { kind: "session", sessionId: principal.sessionId }
                    })
                  : Option.none()
            ),
            Effect.catch(() => Effect.succeedNone)
          )
        return Effect.succeedNone
      },
      holding: (asked) => {
        const sessionIds: Array<Snowflake.Snowflake> = []
        const digests: Array<string> = []
        for (const { credential } of asked) {
          if (credential.kind === "session") sessionIds.push(credential.sessionId)
          else digests.push(credential.tokenDigest)
        }
        return Effect.zipWith(
          sessionIds.length === 0 ? Effect.succeed(new Set<string>()) : sessions.usable(sessionIds),
          digests.length === 0
            ? Effect.succeed(new Map<string, Snowflake.Snowflake>())
            : applications.botsHoldingTokens(digests),
          (usable, botOf) =>
            asked.map(({ userId, credential }) =>
              credential.kind === "session"
                ? usable.has(credential.sessionId)
                : botOf.get(credential.tokenDigest) === userId
            ),
          { concurrent: true }
        )
      }
    })
  })
)
