/**
 * A local stand-in for KLIPY's native API v1 (`/api/v1/{app_key}/gifs/{trending|search|categories}`)
 * on loopback, speaking its protocol as its public clients read it: list answers
 * `{result, data: {data, current_page, per_page, has_next}}` with GIF items
 * (`{id, slug, title, type: "gif", file: {hd|md|sm|xs: {gif|webp|mp4|jpg: {url, width, height, size}}}}`)
 * and, on trending, an ad slot (`type: "ad"`) at the third place of every page, as KLIPY's
 * monetised answers carry them; categories `{result, data: {locale, categories: [{category, query,
 * preview_url}]}}`. A wrong app key answers 401 as KLIPY does.
 *
 * Every request is recorded (path and query). `failNext(mode)` makes the following requests fail:
 * `500`, `401` (as for a revoked app key), `hang` (never answers), `garbage` (not JSON), `html`,
 * `shape` (JSON, wrong shape).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { Context, Effect, Layer } from "effect"

export const APP_KEY = "fake-klipy-app-key"
/** The fake's catalogue: 40 trending items; a search finds 20 per query. */
export const TRENDING_TOTAL = 40
export const SEARCH_TOTAL = 20
export const AD_INDEX = 2

export type FailMode = "500" | "401" | "hang" | "garbage" | "html" | "shape"

export interface Received {
  readonly path: string
  readonly query: Readonly<Record<string, string>>
}

export class FakeKlipy extends Context.Service<
  FakeKlipy,
  {
    /** `http://127.0.0.1:<port>/api/v1`: what KLIPY_BASE_URL would be. */
    readonly baseUrl: string
    readonly received: () => ReadonlyArray<Received>
    /** Requests from now on fail this way (undefined: answer normally again). */
    readonly failNext: (mode: FailMode | undefined) => void
    /** Resolves once the fake holds at least `count` requests. */
    readonly waitFor: (count: number) => Effect.Effect<void>
  }
>()("test/FakeKlipy") {}

const CDN = "https://static.klipy.test"

const rendition = (slug: string, size: string, format: string, width: number, height: number) => ({
  url: `${CDN}/${slug}/${size}.${format}`,
  width,
  height,
  size: 1000
})

/** A GIF item in KLIPY's shape: four sizes, each in GIF, WebP, MP4 and JPEG. */
export const item = (slug: string, title: string) => ({
  id: Math.abs([...slug].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 7)),
  slug,
  title,
  type: "gif",
  tags: ["test"],
  blur_preview: "data:image/jpeg;base64,AAAA",
  file: Object.fromEntries(
    (
      [
        ["hd", 498, 280],
        ["md", 320, 180],
        ["sm", 220, 124],
        ["xs", 90, 50]
      ] as const
    ).map(([size, width, height]) => [
      size,
      Object.fromEntries(
        ["gif", "webp", "mp4", "jpg"].map((format) => [format, rendition(slug, size, format, width, height)])
      )
    ])
  )
})

/** KLIPY's ad slot: no file, its own type. */
const ad = (n: number) => ({ type: "ad", content: `<div>ad ${n}</div>`, width: 300, height: 250 })

const page = (all: ReadonlyArray<unknown>, query: Record<string, string>, withAds: boolean) => {
  const pageNo = Number(query.page ?? "1")
  const perPage = Number(query.per_page ?? "24")
  const start = (pageNo - 1) * perPage
  const items: Array<unknown> = all.slice(start, start + perPage)
  if (withAds && items.length > AD_INDEX) items.splice(AD_INDEX, 0, ad(pageNo))
  return {
    result: true,
    data: { data: items, current_page: pageNo, per_page: perPage, has_next: start + perPage < all.length }
  }
}

export const trendingSlug = (n: number) => `trending-${n}`
export const searchSlug = (q: string, n: number) => `${q.replace(/[^a-z0-9]/g, "-")}-${n}`

const TRENDING = Array.from({ length: TRENDING_TOTAL }, (_, n) => item(trendingSlug(n), `Trending ${n}`))

export const CATEGORIES = [
  { category: "Happy", query: "happy", preview_url: `${CDN}/categories/happy.gif` },
  { category: "Sad", query: "sad", preview_url: `${CDN}/categories/sad.gif` }
]

export const layer: Layer.Layer<FakeKlipy> = Layer.effect(
  FakeKlipy,
  Effect.gen(function* () {
    const received: Array<Received> = []
    const waiters: Array<{ readonly count: number; readonly resolve: () => void }> = []
    let failing: FailMode | undefined

    const send = (response: ServerResponse, status: number, body: string, type = "application/json") => {
      response.writeHead(status, { "content-type": type })
      response.end(body)
    }

    const handle = (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? "/", "http://fake")
      received.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) })
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve()
      switch (failing) {
        case "hang":
          return // never answers; the server closes the socket at the end
        case "500":
          return send(response, 500, JSON.stringify({ result: false, message: "internal error" }))
        case "401":
          return send(response, 401, JSON.stringify({ result: false, message: "invalid api key" }))
        case "garbage":
          return send(response, 200, '{"result": true, "data": {"data": [')
        case "html":
          return send(response, 200, "<html><body>Bad gateway</body></html>", "text/html")
        case "shape":
          return send(response, 200, JSON.stringify({ result: true, data: { items: "nope" } }))
        case undefined:
          break
      }
      const match = /^\/api\/v1\/([^/]+)\/gifs\/(trending|search|categories)$/.exec(url.pathname)
      if (match === null) return send(response, 404, JSON.stringify({ result: false, message: "not found" }))
      if (decodeURIComponent(match[1] ?? "") !== APP_KEY) {
        return send(response, 401, JSON.stringify({ result: false, message: "invalid api key" }))
      }
      const query = Object.fromEntries(url.searchParams)
      switch (match[2]) {
        case "trending":
          return send(response, 200, JSON.stringify(page(TRENDING, query, true)))
        case "search": {
          const q = query.q ?? ""
          const found = Array.from({ length: SEARCH_TOTAL }, (_, n) => item(searchSlug(q, n), `${q} ${n}`))
          return send(response, 200, JSON.stringify(page(found, query, false)))
        }
        default:
          return send(
            response,
            200,
            JSON.stringify({ result: true, data: { locale: query.locale ?? "us", categories: CATEGORIES } })
          )
      }
    }

    const server = createServer(handle)
    const port = yield* Effect.acquireRelease(
      Effect.promise(
        () =>
          new Promise<number>((resolve) => {
            server.listen(0, "127.0.0.1", () => {
              const address = server.address()
              resolve(typeof address === "object" && address !== null ? address.port : 0)
            })
          })
      ),
      () =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              server.closeAllConnections()
              server.close(() => resolve())
            })
        )
    )

    return FakeKlipy.of({
      baseUrl: `http://127.0.0.1:${port}/api/v1`,
      received: () => [...received],
      failNext: (mode) => {
        failing = mode
      },
      waitFor: (count) =>
        Effect.promise(
          () =>
            new Promise<void>((resolve) => {
              if (received.length >= count) resolve()
              else waiters.push({ count, resolve })
            })
        )
    })
  })
)
