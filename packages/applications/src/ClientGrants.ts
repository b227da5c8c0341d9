/**
 * The port through which a deleted application's OAuth grants end (the oauth domain answers it):
 * every access and refresh token users gave the application stops at once, and no code it holds
 * can still be redeemed.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"

export class ClientGrants extends Context.Service<
  ClientGrants,
  { readonly revokeAll: (applicationId: Snowflake.Snowflake) => Effect.Effect<void> }
>()("@veche/applications/ClientGrants") {
  /** No OAuth provider in the host: an application has no grants to end. */
  static readonly layerNone: Layer.Layer<ClientGrants> = Layer.succeed(
    ClientGrants,
    ClientGrants.of({ revokeAll: () => Effect.void })
  )
}
