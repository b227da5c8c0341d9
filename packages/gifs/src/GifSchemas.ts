/**
 * The GIF routes' wire shapes. A GIF is exactly the mirrored platform's GIF object (`id, title,
 * url, src, gif_src, preview, width, height`); a page adds the paging the spec names (`page`,
 * `limit`) and whether another page follows. The same shapes are what the cache keeps.
 */
import { Schema } from "effect"

export const Gif = Schema.Struct({
  /** The provider's id for the GIF (KLIPY: its slug). */
  id: Schema.String,
  title: Schema.String,
  /** The provider's page for the GIF. */
  url: Schema.String,
  /** The media to show (video where the provider has one). */
  src: Schema.String,
  /** The same media as a GIF file. */
  gif_src: Schema.String,
  /** A still image. */
  preview: Schema.String,
  /** Of `src`. */
  width: Schema.Int,
  height: Schema.Int
})
export type Gif = typeof Gif.Type

export const GifPage = Schema.Struct({
  gifs: Schema.Array(Gif),
  page: Schema.Int,
  limit: Schema.Int,
  has_more: Schema.Boolean
})
export type GifPage = typeof GifPage.Type

/** A category tile (the spec's shape): what a client shows and the query to search with. */
export const GifCategory = Schema.Struct({
  name: Schema.String,
  query: Schema.String,
  preview: Schema.String
})
export type GifCategory = typeof GifCategory.Type

export const GifCategories = Schema.Struct({ categories: Schema.Array(GifCategory) })
export type GifCategories = typeof GifCategories.Type
