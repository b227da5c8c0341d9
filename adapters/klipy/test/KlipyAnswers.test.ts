/**
 * KLIPY's answers mapped onto the GIF object: which rendition becomes what, what is left out (ads,
 * other kinds, unusable or unsafe items), and where our small pages lie in KLIPY's.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import * as KlipyAnswers from "../src/KlipyAnswers.ts"
import * as KlipyGifProvider from "../src/KlipyGifProvider.ts"

const { klipyPage } = KlipyGifProvider

const r = (url: string, width = 100, height = 50) => ({ url, width, height, size: 10 })

describe("KlipyAnswers", () => {
  it("takes the medium video, the medium GIF and the small still; sizes are the video's", () => {
    const gifs = KlipyAnswers.gifsOf([
      {
        id: 1,
        slug: "wave-hi",
        title: "Wave",
        type: "gif",
        file: {
          hd: { gif: r("https://c.test/hd.gif", 498, 280) },
          md: { gif: r("https://c.test/md.gif", 320, 180), mp4: r("https://c.test/md.mp4", 320.4, 179.6) },
          sm: { jpg: r("https://c.test/sm.jpg") }
        }
      }
    ])
    expect(gifs).toEqual([
      {
        id: "wave-hi",
        title: "Wave",
        url: "https://klipy.com/gifs/wave-hi",
        src: "https://c.test/md.mp4",
        gif_src: "https://c.test/md.gif",
        preview: "https://c.test/sm.jpg",
        width: 320,
        height: 180
      }
    ])
  })

  it("falls back to what there is: a GIF alone serves as source and preview; no title is empty", () => {
    const [gif] = KlipyAnswers.gifsOf([{ slug: "only-gif", file: { xs: { gif: r("https://c.test/xs.gif", 90, 50) } } }])
    expect(gif).toMatchObject({
      title: "",
      src: "https://c.test/xs.gif",
      gif_src: "https://c.test/xs.gif",
      preview: "https://c.test/xs.gif",
      width: 90,
      height: 50
    })
  })

  it("leaves out ads, other kinds, items without a GIF file and items with non-http(s) URLs", () => {
    const good = { slug: "good", type: "gif", file: { md: { gif: r("https://c.test/g.gif") } } }
    const gifs = KlipyAnswers.gifsOf([
      { type: "ad", content: "<div>ad</div>" },
      { type: "sticker", slug: "s", file: { md: { gif: r("https://c.test/s.gif") } } },
      { slug: "no-gif", type: "gif", file: { md: { mp4: r("https://c.test/v.mp4") } } },
      { slug: "evil", type: "gif", file: { md: { gif: r("javascript:alert(1)") } } },
      { slug: "", type: "gif", file: { md: { gif: r("https://c.test/e.gif") } } },
      "junk",
      null,
      good
    ])
    expect(gifs.map((gif) => gif.id)).toEqual(["good"])
  })

  it("reads a small page from the KLIPY page that holds it", () => {
    expect(klipyPage(1, 24)).toEqual({ page: 1, perPage: 24, offset: 0 })
    expect(klipyPage(3, 8)).toEqual({ page: 3, perPage: 8, offset: 0 })
    expect(klipyPage(1, 1)).toEqual({ page: 1, perPage: 8, offset: 0 })
    expect(klipyPage(9, 1)).toEqual({ page: 2, perPage: 8, offset: 0 })
    expect(klipyPage(2, 3)).toEqual({ page: 1, perPage: 9, offset: 3 })
    expect(klipyPage(4, 3)).toEqual({ page: 2, perPage: 9, offset: 0 })
    expect(klipyPage(2, 5)).toEqual({ page: 1, perPage: 10, offset: 5 })
    // every page of every small size covers exactly its own items
    for (let limit = 1; limit <= 7; limit++) {
      for (let page = 1; page <= 20; page++) {
        const at = klipyPage(page, limit)
        expect((at.page - 1) * at.perPage + at.offset).toBe((page - 1) * limit)
        expect(at.offset + limit).toBeLessThanOrEqual(at.perPage)
        expect(at.perPage).toBeGreaterThanOrEqual(8)
      }
    }
  })
})

describe("KlipyGifProvider.layerConfig", () => {
  const build = (env: Record<string, string>) =>
    Effect.exit(
      Layer.build(KlipyGifProvider.layerConfig).pipe(
        Effect.scoped,
        Effect.provide(Layer.merge(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), FetchHttpClient.layer))
      )
    )

  it.effect("needs KLIPY_API_KEY, and an http(s) KLIPY_BASE_URL when one is given", () =>
    Effect.gen(function* () {
      expect(Exit.isFailure(yield* build({}))).toBe(true)
      expect(Exit.isFailure(yield* build({ KLIPY_API_KEY: "  " }))).toBe(true)
      expect(Exit.isFailure(yield* build({ KLIPY_API_KEY: "key", KLIPY_BASE_URL: "ftp://x" }))).toBe(true)
      expect(Exit.isFailure(yield* build({ KLIPY_API_KEY: "key", SERVICE_GIFS_TIMEOUT: "soon" }))).toBe(true)
      expect(Exit.isSuccess(yield* build({ KLIPY_API_KEY: "key" }))).toBe(true)
      expect(
        Exit.isSuccess(
          yield* build({
            KLIPY_API_KEY: "key",
            KLIPY_BASE_URL: "http://127.0.0.1:9/api/v1/",
            SERVICE_GIFS_TIMEOUT: "1 second"
          })
        )
      ).toBe(true)
    })
  )
})
