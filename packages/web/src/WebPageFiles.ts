/**
 * The pages' files, read from the package's assets/ folder once, as ready responses. A layer of its
 * own so a server reads them before it listens: a request that arrives while a route is still
 * being built would be accepted and never answered.
 *
 * The scripts, style sheets and icon are read at their first request, then kept: an idle server
 * holds none of their text (0.4 MB of heap; uPlot's 145 KB file is 290 KB of it, as its Greek `μ`
 * makes V8 keep it at two bytes a character). Their files are checked at start all the same, so a
 * broken install still fails before the server listens.
 */

import { access, readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { Context, Effect, Layer } from "effect"
import { HttpServerResponse } from "effect/http"
import * as Page from "./Page.ts"
import * as SecurityHeaders from "./SecurityHeaders.ts"
import { WebPagesConfig } from "./WebPagesConfig.ts"

export class WebPageFiles extends Context.Service<
  WebPageFiles,
  {
    /** Each page with its HTML response (the API's base filled in). */
    readonly pages: ReadonlyArray<{
      readonly page: Page.Page
      readonly response: HttpServerResponse.HttpServerResponse
    }>
    /** The scripts, style sheets and icon by file name, each read at its first request. */
    readonly assets: ReadonlyMap<string, Effect.Effect<HttpServerResponse.HttpServerResponse>>
  }
>()("@veche/web/WebPageFiles") {
  static readonly layer: Layer.Layer<WebPageFiles, never, WebPagesConfig> = Layer.effect(
    WebPageFiles,
    Effect.gen(function* () {
      const config = yield* WebPagesConfig
      const dir = yield* assetsDir
      const pages = yield* pageResponses(config, dir)
      const assets = new Map<string, Effect.Effect<HttpServerResponse.HttpServerResponse>>()
      const files = [
        ...Object.entries(Page.assets).map(([name, contentType]) => ({ name, path: new URL(name, dir), contentType })),
        ...Object.entries(Page.vendor).map(([name, { file, contentType }]) => ({
          name,
          path: pathToFileURL(createRequire(import.meta.url).resolve(file)),
          contentType
        }))
      ]
      for (const { name, path, contentType } of files) {
        yield* present(path)
        const response = Effect.map(read(path), (text) =>
          HttpServerResponse.text(text, { contentType, headers: SecurityHeaders.forAsset })
        )
        assets.set(name, yield* Effect.cached(response))
      }
      return WebPageFiles.of({ pages, assets })
    })
  )
}

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

/** A file the server serves; missing means a broken install, so a defect. */
const read = (file: URL) => Effect.promise(() => readFile(file, "utf8"))

/** Fails the start (a defect) if a file the server serves is missing. */
const present = (file: URL) => Effect.promise(() => access(file))

/** What may stand in an HTML attribute value in double quotes. */
const attribute = (value: string) =>
  value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/**
 * Each page's HTML with the API's base and the captcha provider filled in (`{{api_base}}`,
 * `{{captcha}}`, read by the scripts from meta tags).
 */
const pageResponses = Effect.fn("WebPageFiles.pageResponses")(function* (config: WebPagesConfig["Service"], dir: URL) {
  const headers = SecurityHeaders.forPage(config.apiOrigin)
  return yield* Effect.forEach(Page.all, (page) =>
    Effect.map(read(new URL(page.file, dir)), (html) => ({
      page,
      response: HttpServerResponse.text(
        html.replaceAll("{{api_base}}", attribute(config.apiBase)).replaceAll("{{captcha}}", attribute(config.captcha)),
        {
          contentType: "text/html; charset=utf-8",
          headers
        }
      )
    }))
  )
})
