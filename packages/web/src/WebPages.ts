/**
 * The pages as router routes: `GET` on each page's path answers its HTML, and the scripts, style
 * sheet and icon are served from `Page.ASSETS_PATH`. A host mounts `routes` beside the API's routes
 * (behind the same edge middleware) and provides `WebPageFiles` (read before it listens) and
 * `WebPagesConfig`; `layer` is the routes with both for a given API base.
 *
 * A page never acts on GET: a mail scanner or link preview that fetches the link consumes nothing.
 * The person's click runs the page's script, which POSTs the token to the API.
 */

import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as Page from "./Page.ts"
import { WebPageFiles } from "./WebPageFiles.ts"
import { WebPagesConfig } from "./WebPagesConfig.ts"

export const routes: Layer.Layer<never, never, HttpRouter.HttpRouter | WebPageFiles> = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const files = yield* WebPageFiles
    for (const { page, response } of files.pages) {
      yield* router.add("GET", page.path, response)
    }
    yield* router.add("GET", `${Page.ASSETS_PATH}/:name`, (request) => {
      const name = request.url.split("?")[0]?.slice(Page.ASSETS_PATH.length + 1) ?? ""
      return files.assets.get(name) ?? Effect.succeed(HttpServerResponse.empty({ status: 404 }))
    })
  })
)

/** The routes with their files, the pages calling the API at `apiBase` (default `/api/v10`). */
export const layer = (apiBase?: string): Layer.Layer<never, never, HttpRouter.HttpRouter> =>
  routes.pipe(Layer.provide(WebPageFiles.layer), Layer.provide(WebPagesConfig.layer(apiBase)))
