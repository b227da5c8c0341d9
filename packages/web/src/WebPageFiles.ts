/**
 * The pages' files, read from the package's assets/ folder once, as ready responses. A layer of its
 * own so a server reads them before it listens: a request that arrives while a route is still
 * being built would be accepted and never answered.
 */

import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
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
    /** The scripts, style sheet and icon by file name. */
    readonly assets: ReadonlyMap<string, HttpServerResponse.HttpServerResponse>
  }
>()("@veche/web/WebPageFiles") {
  static readonly layer: Layer.Layer<WebPageFiles, never, WebPagesConfig> = Layer.effect(
    WebPageFiles,
    Effect.gen(function* () {
      const config = yield* WebPagesConfig
      const dir = yield* assetsDir
      const pages = yield* pageResponses(config, dir)
      const assets = new Map<string, HttpServerResponse.HttpServerResponse>()
      for (const [name, contentType] of Object.entries(Page.assets)) {
        assets.set(
          name,
          HttpServerResponse.text(yield* asset(dir, name), { contentType, headers: SecurityHeaders.forAsset })
        )
      }
      for (const [name, { file, contentType }] of Object.entries(Page.vendor)) {
        assets.set(
          name,
          HttpServerResponse.text(yield* vendorFile(file), { contentType, headers: SecurityHeaders.forAsset })
        )
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

/** A file of the package; missing means a broken install, so a defect. */
const asset = (dir: URL, name: string) => Effect.promise(() => readFile(new URL(name, dir), "utf8"))

/** A file of a dependency, found as Node resolves the package (a dependency of this one). */
const vendorFile = (file: string) =>
  Effect.promise(() => readFile(createRequire(import.meta.url).resolve(file), "utf8"))

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
    Effect.map(asset(dir, page.file), (html) => ({
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
