/**
 * The GIF proxy as one layer: Gifs over the provider, the cache and the settings. It keeps nothing
 * of a user (no repository, no personal data): answers are cached by query, not by person. Hosts
 * supply the provider (`GifProviderConfig.layerConfig`, or `DevGifProvider.layer`), the cache
 * (`GifCache.layerMemory`, or Redis) and GifViewers (answered in the kit by users and auth).
 */
import type { Layer } from "effect"
import type { Mac } from "effect/crypto"
import type { GifCache } from "./GifCache.ts"
import type { GifProvider } from "./GifProvider.ts"
import { Gifs } from "./Gifs.ts"
import type { GifsConfig } from "./GifsConfig.ts"
import type { GifViewers } from "./GifViewers.ts"

export type Services = Gifs

export const layer: Layer.Layer<Services, never, GifProvider | GifCache | GifViewers | GifsConfig | Mac.Mac> =
  Gifs.layer
