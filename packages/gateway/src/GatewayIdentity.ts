/**
 * Whose token an IDENTIFY or RESUME carries: the port the gateway asks, answered by the host with
 * the same authentication the REST routes use (`@veche/rest` GatewayAuthenticator). Tokens arrive
 * bare, as the platform's clients send them, so the answer says whether it was a bot's. OAuth access
 * tokens are not answered (None): they grant API scopes, not a gateway session.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, type Redacted } from "effect"

export interface Identity {
  readonly kind: "user" | "bot"
  readonly userId: Snowflake.Snowflake
  /** The bot's application flags (which privileged intents it may ask for); 0 for users. */
  readonly applicationFlags: number
}

export class GatewayIdentity extends Context.Service<
  GatewayIdentity,
  { readonly identify: (token: Redacted.Redacted<string>) => Effect.Effect<Option.Option<Identity>> }
>()("@veche/gateway/GatewayIdentity") {
  /** Nobody may connect: a host with no accounts wired in. */
  static readonly layerNone: Layer.Layer<GatewayIdentity> = Layer.succeed(
    GatewayIdentity,
    GatewayIdentity.of({ identify: () => Effect.succeed(Option.none()) })
  )
}
