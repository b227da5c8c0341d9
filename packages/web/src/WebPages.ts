/**
 * The pages as router routes: `GET` on each page's path answers its HTML, and the scripts and style
 * sheet are served from `Page.ASSETS_PATH`. A host mounts `routes` beside the API's routes (behind
 * the same edge middleware) and provides `WebPagesConfig`.
 *
 * A page never acts on GET: a mail scanner or link preview that fetches the link consumes nothing.
 * The person's click runs the page's script, which POSTs the token to the API.
 */

import { readFile } from "node:fs/promises"
import { Effect, type Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import * as Page from "./Page.ts"
import * as SecurityHeaders from "./SecurityHeaders.ts"
import { WebPagesConfig } from "./WebPagesConfig.ts"

/**
 * The package's assets/ folder, beside src/ and dist/ alike (both one level below the package), so
 * the pages load from the sources in tests and from the built package under `./dev start`.
 */
const ASSETS_DIR = new URL("../assets/", import.meta.url)

/** A file of the package; missing means a broken install, so a defect. */
const asset = (name: string) => Effect.promise(() => readFile(new URL(name, ASSETS_DIR), "utf8"))

/** What may stand in an HTML attribute value in double quotes. */
const attribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/**
 * Each page's HTML with the API's base filled in (`{{api_base}}`, read by the scripts from a meta
 * tag). Read once, when the routes are built.
 */
const pageResponses = Effect.fn("WebPages.pageResponses")(function* (config: WebPagesConfig["Service"]) {
  const headers = SecurityHeaders.forPage(config.apiOrigin)
  return yield* Effect.forEach(Page.all, (page) =>
    Effect.map(asset(page.file), (html) => ({
      page,
      response: HttpServerResponse.text(html.replaceAll("{{api_base}}", attribute(config.apiBase)), {
        contentType: "text/html; charset=utf-8",
        headers
      })
    }))
  )
})

export const routes: Layer.Layer<never, never, HttpRouter.HttpRouter | WebPagesConfig> = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const config = yield* WebPagesConfig
    for (const { page, response } of yield* pageResponses(config)) {
      yield* router.add("GET", page.path, response)
    }
    const files = new Map<string, HttpServerResponse.HttpServerResponse>()
    for (const [name, contentType] of Object.entries(Page.assets)) {
      files.set(name, HttpServerResponse.text(yield* asset(name), { contentType, headers: SecurityHeaders.forAsset }))
    }
    yield* router.add("GET", `${Page.ASSETS_PATH}/:name`, (request) => {
      const name = request.url.split("?")[0]?.slice(Page.ASSETS_PATH.length + 1) ?? ""
      return Effect.succeed(files.get(name) ?? HttpServerResponse.empty({ status: 404 }))
    })
  })
)
