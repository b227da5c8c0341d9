/**
 * KLIPY's answers as Schemas, and their mapping onto the mirrored platform's GIF object. Shapes are
 * those of KLIPY's native API v1 as its public clients read them (shared/docs/provider-notes.md
 * §2.2): a list is `{result, data: {data: [item…], current_page, per_page, has_next}}`, an item
 * `{slug, title, type, file: {hd|md|sm|xs: {gif|webp|mp4|jpg|webm: {url, width, height}}}}`,
 * categories `{result, data: {categories: [{category, query, preview_url}]}}`.
 *
 * Anything whose `type` is not `gif` (KLIPY's ad slots, or kinds we never asked for) is kept out
 * of the answer; a GIF item we cannot show (no GIF file) is left out as well. Every URL must be
 * http(s): a provider answer never puts a `javascript:` link in front of a client.
 */
import type { GifSchemas } from "@veche/gifs"
import { Option, Schema } from "effect"

const HttpUrl = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((url: string) => url.startsWith("https://") || url.startsWith("http://"), {
      message: "an http(s) URL"
    })
  )
)

const Rendition = Schema.Struct({
  url: HttpUrl,
  width: Schema.optionalKey(Schema.Finite),
  height: Schema.optionalKey(Schema.Finite)
})
type Rendition = typeof Rendition.Type

const Formats = Schema.Struct({
  gif: Schema.optionalKey(Rendition),
  webp: Schema.optionalKey(Rendition),
  mp4: Schema.optionalKey(Rendition),
  jpg: Schema.optionalKey(Rendition),
  webm: Schema.optionalKey(Rendition)
})

const Files = Schema.Struct({
  hd: Schema.optionalKey(Formats),
  md: Schema.optionalKey(Formats),
  sm: Schema.optionalKey(Formats),
  xs: Schema.optionalKey(Formats)
})
type Files = typeof Files.Type

const GifItem = Schema.Struct({
  slug: Schema.String.pipe(Schema.check(Schema.isNonEmpty())),
  title: Schema.optionalKey(Schema.NullOr(Schema.String)),
  type: Schema.optionalKey(Schema.Literal("gif")),
  file: Files
})
type GifItem = typeof GifItem.Type

/** An ad slot or another kind of item: only its type is read, to leave it out. */
const OtherItem = Schema.Struct({
  type: Schema.String.pipe(Schema.check(Schema.makeFilter((type: string) => type !== "gif")))
})

const Item = Schema.Union([GifItem, OtherItem])

/**
 * A list answer. Its items are read one by one (`gifsOf`): one item we cannot read (a new kind, a
 * URL that is not http(s)) is left out instead of failing the whole page; an envelope we cannot
 * read fails the call.
 */
export const ListAnswer = Schema.Struct({
  result: Schema.Literal(true),
  data: Schema.Struct({
    data: Schema.Array(Schema.Unknown),
    current_page: Schema.optionalKey(Schema.Finite),
    per_page: Schema.optionalKey(Schema.Finite),
    has_next: Schema.Boolean
  })
})
export type ListAnswer = typeof ListAnswer.Type

export const CategoriesAnswer = Schema.Struct({
  result: Schema.Literal(true),
  data: Schema.Struct({
    categories: Schema.Array(Schema.Struct({ category: Schema.String, query: Schema.String, preview_url: HttpUrl }))
  })
})
export type CategoriesAnswer = typeof CategoriesAnswer.Type

/** Where KLIPY shows a GIF (its share page). */
export const pageUrl = (slug: string): string => `https://klipy.com/gifs/${encodeURIComponent(slug)}`

type Size = keyof Files
type Format = "gif" | "webp" | "mp4" | "jpg" | "webm"

const first = (files: Files, choices: ReadonlyArray<readonly [Size, Format]>): Rendition | undefined => {
  for (const [size, format] of choices) {
    const rendition = files[size]?.[format]
    if (rendition !== undefined) return rendition
  }
  return undefined
}

/** The medium size first (what a picker shows), in the formats clients play best. */
const SRC: ReadonlyArray<readonly [Size, Format]> = [
  ["md", "mp4"],
  ["md", "webp"],
  ["md", "gif"],
  ["hd", "mp4"],
  ["sm", "mp4"],
  ["hd", "gif"],
  ["sm", "gif"]
]
const GIF_SRC: ReadonlyArray<readonly [Size, Format]> = [
  ["md", "gif"],
  ["hd", "gif"],
  ["sm", "gif"],
  ["xs", "gif"]
]
const PREVIEW: ReadonlyArray<readonly [Size, Format]> = [
  ["sm", "jpg"],
  ["md", "jpg"],
  ["xs", "jpg"],
  ["hd", "jpg"],
  ["xs", "gif"],
  ["sm", "gif"]
]

const isGif = (item: typeof Item.Type): item is GifItem => "file" in item

/** One KLIPY GIF as the mirrored platform's GIF object; undefined when it has no GIF file to show. */
export const toGif = (item: GifItem): GifSchemas.Gif | undefined => {
  const gif = first(item.file, GIF_SRC)
  if (gif === undefined) return undefined
  const src = first(item.file, SRC) ?? gif
  const preview = first(item.file, PREVIEW) ?? gif
  return {
    id: item.slug,
    title: item.title ?? "",
    url: pageUrl(item.slug),
    src: src.url,
    gif_src: gif.url,
    preview: preview.url,
    width: Math.max(0, Math.round(src.width ?? 0)),
    height: Math.max(0, Math.round(src.height ?? 0))
  }
}

const decodeItem = Schema.decodeUnknownOption(Item)

/** The GIFs of a list, in order: ads, other kinds and items we cannot read or show left out. */
export const gifsOf = (items: ReadonlyArray<unknown>): Array<GifSchemas.Gif> => {
  const gifs: Array<GifSchemas.Gif> = []
  for (const raw of items) {
    const item = decodeItem(raw)
    if (Option.isNone(item) || !isGif(item.value)) continue
    const gif = toGif(item.value)
    if (gif !== undefined) gifs.push(gif)
  }
  return gifs
}
