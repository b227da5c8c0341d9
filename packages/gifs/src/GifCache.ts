/**
 * Where provider answers are kept for a short while: the same page for the same query, locale and
 * content filter is asked of the provider once per time-to-live, whoever asks (the key names no
 * user). Values are the answers as JSON text. A cache that fails is a miss, never an error: the
 * route then asks the provider.
 *
 * Adapters: `layerMemory` (this process, bounded), Redis (`RedisGifCache` in `@veche/redis`,
 * shared by every node).
 */
import { Clock, Context, type Duration, Effect, Layer, Option } from "effect"
import * as MemoryGifCache from "./internal/MemoryGifCache.ts"

export class GifCache extends Context.Service<
  GifCache,
  {
    readonly get: (key: string) => Effect.Effect<Option.Option<string>>
    readonly set: (key: string, value: string, ttl: Duration.Duration) => Effect.Effect<void>
  }
>()("@veche/gifs/GifCache") {
  /** In this process, at most `maxEntries` answers (the oldest go first), expiring on Effect's clock. */
  static readonly layerMemory = (options: { readonly maxEntries?: number } = {}): Layer.Layer<GifCache> =>
    Layer.sync(GifCache, () => {
      const store = MemoryGifCache.make(options.maxEntries ?? MemoryGifCache.DEFAULT_MAX_ENTRIES)
      return GifCache.of({
        get: (key) => Clock.currentTimeMillis.pipe(Effect.map((now) => Option.fromNullishOr(store.get(key, now)))),
        set: (key, value, ttl) => Clock.currentTimeMillis.pipe(Effect.map((now) => store.set(key, value, ttl, now)))
      })
    })

  /** Nothing kept: every request asks the provider. */
  static readonly layerNone: Layer.Layer<GifCache> = Layer.succeed(
    GifCache,
    GifCache.of({ get: () => Effect.succeedNone, set: () => Effect.void })
  )
}
