/**
 * A GIF provider for development and tests without the internet: a few fixtures whose images are
 * small animated SVGs in `data:` URLs, so `./dev start` shows something and nothing leaves the
 * machine. Trending is the fixtures in order, search matches names and tags, categories are a few
 * tiles that search for fixtures. Paging works as a provider's does.
 */
import { Effect, Layer } from "effect"
import { GifProvider } from "./GifProvider.ts"
import type { Gif, GifCategory, GifPage } from "./GifSchemas.ts"

const WIDTH = 200
const HEIGHT = 150

interface Fixture {
  readonly name: string
  readonly color: string
  readonly tags: ReadonlyArray<string>
}

const FIXTURES: ReadonlyArray<Fixture> = [
  { name: "hello", color: "#5865f2", tags: ["hi", "wave", "greeting"] },
  { name: "thanks", color: "#3ba55c", tags: ["thank you", "grateful"] },
  { name: "yes", color: "#2d7d46", tags: ["agree", "ok"] },
  { name: "no", color: "#ed4245", tags: ["disagree", "nope"] },
  { name: "cat", color: "#faa61a", tags: ["cats", "animal", "kitty"] },
  { name: "dance", color: "#eb459e", tags: ["party", "happy"] },
  { name: "facepalm", color: "#747f8d", tags: ["sigh", "reaction"] },
  { name: "party", color: "#9b59b6", tags: ["celebrate", "happy"] }
]

/** An SVG whose text pulses, in a `data:` URL (percent-encoded: no base64 needed for SVG). */
const image = (fixture: Fixture, animated: boolean): string => {
  const pulse = animated
    ? "<animate attributeName='opacity' values='1;0.3;1' dur='1.2s' repeatCount='indefinite'/>"
    : ""
  const svg =
    `<svg xmlns='http://www.w3.org/2000/svg' width='${WIDTH}' height='${HEIGHT}'>` +
    `<rect width='100%' height='100%' fill='${fixture.color}'/>` +
    `<text x='50%' y='50%' font-family='sans-serif' font-size='28' fill='white' text-anchor='middle' dominant-baseline='middle'>` +
    `${fixture.name}${pulse}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}

const gif = (fixture: Fixture): Gif => {
  const src = image(fixture, true)
  return {
    id: `dev-${fixture.name}`,
    title: fixture.name,
    url: src,
    src,
    gif_src: src,
    preview: image(fixture, false),
    width: WIDTH,
    height: HEIGHT
  }
}

const paged = (items: ReadonlyArray<Fixture>, page: number, limit: number): GifPage => {
  const start = (page - 1) * limit
  return {
    gifs: items.slice(start, start + limit).map(gif),
    page,
    limit,
    has_more: start + limit < items.length
  }
}

const matches = (q: string) => (fixture: Fixture) => {
  const words = q.toLowerCase()
  return fixture.name.includes(words) || fixture.tags.some((tag) => tag.includes(words) || words.includes(tag))
}

const CATEGORIES: ReadonlyArray<GifCategory> = [
  { name: "Greetings", query: "hello", fixture: "hello" },
  { name: "Reactions", query: "reaction", fixture: "facepalm" },
  { name: "Happy", query: "happy", fixture: "dance" },
  { name: "Animals", query: "animal", fixture: "cat" }
].map(({ name, query, fixture }) => ({
  name,
  query,
  preview: image(FIXTURES.find((f) => f.name === fixture) ?? (FIXTURES[0] as Fixture), false)
}))

export const make: GifProvider["Service"] = GifProvider.of({
  name: "dev",
  trending: (request) => Effect.succeed(paged(FIXTURES, request.page, request.limit)),
  search: (request) => Effect.succeed(paged(FIXTURES.filter(matches(request.q)), request.page, request.limit)),
  categories: () => Effect.succeed({ categories: CATEGORIES })
})

export const layer: Layer.Layer<GifProvider> = Layer.succeed(GifProvider, make)
