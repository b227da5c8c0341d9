/**
 * The no-store middleware (the tag is `@veche/api`'s `NoStore`): every answer of a route declaring
 * it, its refusals included, says no cache may keep it: `Cache-Control: no-store`, and `Pragma:
 * no-cache` for HTTP/1.0 caches (RFC 6749 §5.1 asks both of answers carrying tokens). One place for
 * every route handing out credentials, so a handler cannot forget it. The token endpoint
 * (`OAuthTokenHandlers`) answers outside HttpApi's encoding and sets the same headers itself.
 */
import { NoStore } from "@veche/api"
import { Effect, Layer } from "effect"
import { HttpEffect } from "effect/http"
import * as ResponseHeaders from "./ResponseHeaders.ts"

const HEADERS = { "cache-control": "no-store", pragma: "no-cache" } as const

// A pre-response handler, not a change to the handler's response: declared refusals are encoded
// into responses outside this middleware, and they get the headers too.
const noStore: HttpEffect.PreResponseHandler = (_request, response) =>
  Effect.succeed(ResponseHeaders.withLowerCase(response, HEADERS))

export const layer: Layer.Layer<NoStore.NoStore> = Layer.succeed(
  NoStore.NoStore,
  NoStore.NoStore.of((httpEffect) => HttpEffect.withPreResponseHandler(httpEffect, noStore))
)
