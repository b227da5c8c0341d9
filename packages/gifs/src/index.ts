/**
 * @veche/gifs: the GIF search proxy (trending, search, category tiles) over a provider port, with
 * an anonymised customer id per user and a short cache. Ports hosts answer: GifProvider, GifCache;
 * the kit answers GifViewers.
 */
export * as CustomerIds from "./CustomerIds.ts"
export * as DevGifProvider from "./DevGifProvider.ts"
export * as GifCache from "./GifCache.ts"
export * as GifProvider from "./GifProvider.ts"
export * as GifProviderConfig from "./GifProviderConfig.ts"
export * as GifSchemas from "./GifSchemas.ts"
export * as Gifs from "./Gifs.ts"
export * as GifsConfig from "./GifsConfig.ts"
export * as GifsDomain from "./GifsDomain.ts"
export * as GifsErrors from "./GifsErrors.ts"
export * as GifViewers from "./GifViewers.ts"
