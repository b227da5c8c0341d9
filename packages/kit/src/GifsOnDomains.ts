/**
 * The GIF proxy over the domains that answer its port: a viewer's locale comes from their settings
 * (the users domain's Profiles; bots get the defaults), their birth date from the accounts domain's
 * AccountLookup (bots have none, so they get the strict content filter).
 */
import { AccountLookup } from "@veche/auth"
import { type GifCache, type GifProvider, type GifsConfig, GifsDomain, GifViewers } from "@veche/gifs"
import { Profiles } from "@veche/users"
import { Effect, Layer, Option } from "effect"
import type { Mac } from "effect/crypto"

const gifViewers = Layer.effect(
  GifViewers.GifViewers,
  Effect.gen(function* () {
    const profiles = yield* Profiles.Profiles
    const accounts = yield* AccountLookup.AccountLookup
    return GifViewers.GifViewers.of({
      read: (userId) =>
        Effect.all({ settings: profiles.settings(userId), account: accounts.read(userId) }).pipe(
          Effect.map(({ settings, account }) => ({
            locale: settings.locale,
            dateOfBirth: Option.match(account, { onNone: () => null, onSome: (facts) => facts.dateOfBirth })
          }))
        )
    })
  })
)

export const layer: Layer.Layer<
  GifsDomain.Services,
  never,
  | GifProvider.GifProvider
  | GifCache.GifCache
  | GifsConfig.GifsConfig
  | Mac.Mac
  | Profiles.Profiles
  | AccountLookup.AccountLookup
> = GifsDomain.layer.pipe(Layer.provide(gifViewers))
