/**
 * Whose token an IDENTIFY or RESUME carries, and whether what it proved still holds: the port the
 * gateway asks, answered by the host with the same authentication the REST routes use (`@veche/rest`
 * GatewayAuthenticator). Tokens arrive bare, as the platform's clients send them, so the answer says
 * whether it was a bot's. OAuth access tokens are not answered (None): they grant API scopes, not a
 * gateway session.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, type Redacted } from "effect"

/**
 * What an open session rests on once identified. Not the access token itself: a client refreshes
 * that (the old one is deleted) and it expires within the hour, while the login session it belongs
 * to lives on. A bot's token does not rotate: its digest stands for it (a reset replaces it).
 */
export type Credential =
  | { readonly kind: "session"; readonly sessionId: Snowflake.Snowflake }
  | { readonly kind: "bot"; readonly tokenDigest: string }

/** One string per credential: equal for the same login session, or the same bot token. */
export const credentialKey = (credential: Credential): string =>
  credential.kind === "session" ? credential.sessionId : `bot ${credential.tokenDigest}`

/** The same login session, or the same bot token. */
export const sameCredential = (a: Credential | undefined, b: Credential): boolean =>
  a !== undefined && credentialKey(a) === credentialKey(b)

export interface Identity {
  readonly kind: "user" | "bot"
  readonly userId: Snowflake.Snowflake
  /** The bot's application flags (which privileged intents it may ask for); 0 for users. */
  readonly applicationFlags: number
  readonly credential: Credential
}

export class GatewayIdentity extends Context.Service<
  GatewayIdentity,
  {
    readonly identify: (token: Redacted.Redacted<string>) => Effect.Effect<Option.Option<Identity>>
    /**
     * Whether each credential still holds for its user (in the order given): a login session not
     * revoked, ended or of an old password, its account not blocked; a bot token still its bot's.
     * Asked for many open sessions at once. A store that cannot answer dies (a defect, as on the
     * REST routes): the caller keeps those sessions and asks again later, since a database outage
     * must not close every connection.
     */
    readonly holding: (
      asked: ReadonlyArray<{ readonly userId: Snowflake.Snowflake; readonly credential: Credential }>
    ) => Effect.Effect<ReadonlyArray<boolean>>
  }
>()("@veche/gateway/GatewayIdentity") {
  /** Nobody may connect: a host with no accounts wired in. */
  static readonly layerNone: Layer.Layer<GatewayIdentity> = Layer.succeed(
    GatewayIdentity,
    GatewayIdentity.of({
      identify: () => Effect.succeed(Option.none()),
      holding: (asked) => Effect.succeed(asked.map(() => false))
    })
  )
}
