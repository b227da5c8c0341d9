/**
 * Where clients open the WebSocket gateway (`GET /gateway`). Bot libraries append their own query
 * (`?v=10&encoding=json`), so the configured URL must be a bare ws:// or wss:// address.
 */
import { Context, Effect, Layer, Schema } from "effect"

export const GatewayUrlString = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(
      (s: string) => {
        if (!URL.canParse(s)) return false
        const url = new URL(s)
        return (url.protocol === "ws:" || url.protocol === "wss:") && url.search === "" && url.hash === ""
      },
      { message: "must be a ws:// or wss:// URL without a query string" }
    )
  )
)

export class GatewayUrl extends Context.Service<GatewayUrl, { readonly url: string }>()("@veche/rest/GatewayUrl") {
  static readonly layer = (url: string): Layer.Layer<GatewayUrl, Schema.SchemaError> =>
    Layer.effect(
      GatewayUrl,
      Effect.map(Schema.decodeUnknownEffect(GatewayUrlString)(url), (valid) => GatewayUrl.of({ url: valid }))
    )

  /**
   * A URL known only once the server listens (the default `ws://HOST:PORT/gateway` with PORT=0):
   * read at each request. The host answers for its validity.
   */
  static readonly layerLive = (url: () => string): Layer.Layer<GatewayUrl> =>
    Layer.succeed(
      GatewayUrl,
      GatewayUrl.of({
        get url() {
          return url()
        }
      })
    )
}
