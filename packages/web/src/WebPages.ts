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

const PACKAGE_NAME = "@veche/web"

/**
 * The package's assets/ folder: the nearest folder above this module whose package.json is this
 * package's. Not a fixed `../assets/`: the build moves shared code into dist/internal/chunks/, so
 * this module may run from src/, dist/ or a chunk deeper down.
 */
const assetsDir = Effect.promise(async () => {
  let dir = new URL("./", import.meta.url)
  for (let depth = 0; depth < 6; depth++) {
    const manifest = await readFile(new URL("package.json", dir), "utf8").catch(() => undefined)
    if (manifest !== undefined && (JSON.parse(manifest) as { name?: unknown }).name === PACKAGE_NAME) {
      return new URL("assets/", dir)
    }
    dir = new URL("../", dir)
  }
  throw new Error(`${PACKAGE_NAME}: no assets/ folder above ${import.meta.url}`)
})

/** A file of the package; missing means a broken install, so a defect. */
const asset = (dir: URL, name: string) => Effect.promise(() => readFile(new URL(name, dir), "utf8"))

/** What may stand in an HTML attribute value in double quotes. */
const attribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/**
 * Each page's HTML with the API's base filled in (`{{api_base}}`, read by the scripts from a meta
 * tag). Read once, when the routes are built.
 */
const pageResponses = Effect.fn("WebPages.pageResponses")(function* (config: WebPagesConfig["Service"], dir: URL) {
  const headers = SecurityHeaders.forPage(config.apiOrigin)
  return yield* Effect.forEach(Page.all, (page) =>
    Effect.map(asset(dir, page.file), (html) => ({
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
    const dir = yield* assetsDir
    for (const { page, response } of yield* pageResponses(config, dir)) {
      yield* router.add("GET", page.path, response)
    }
    const files = new Map<string, HttpServerResponse.HttpServerResponse>()
    for (const [name, contentType] of Object.entries(Page.assets)) {
      files.set(
        name,
        HttpServerResponse.text(yield* asset(dir, name), { contentType, headers: SecurityHeaders.forAsset })
      )
    }
    yield* router.add("GET", `${Page.ASSETS_PATH}/:name`, (request) => {
      const name = request.url.split("?")[0]?.slice(Page.ASSETS_PATH.length + 1) ?? ""
      return Effect.succeed(files.get(name) ?? HttpServerResponse.empty({ status: 404 }))
    })
  })
)
