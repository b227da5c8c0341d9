/**
 * `CredentialChanges` (`@veche/platform`) from the principal cache's notifications: the triggers of
 * migration 0030 name the user whenever a session, token, block, credential or the account itself
 * changes (a new session or token excepted, migration 0031), and a bot's token reset or its
 * application deleted (migration 0033), on whichever node wrote it, and every node's connections
 * hear it. The gateway then asks whether that user's sessions' login sessions (a bot's token) still
 * hold. Without the cache (a client built elsewhere, not listening) nothing is provided, and the
 * Reference's default hears nothing; with the cache turned off (`principalCacheEntries: 0`, for a
 * pooler that drops LISTEN) the store is there but no connection listens, so no word comes either:
 * the gateway's periodic check is then the only bound.
 */
import { CredentialChanges } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import { PrincipalCache } from "./PrincipalCache.ts"

export const layer: Layer.Layer<never> = Layer.effectContext(
  Effect.map(Effect.serviceOption(PrincipalCache), (cache) =>
    Option.match(cache, {
      onNone: () => Context.empty(),
      onSome: (store) =>
        Context.make(CredentialChanges.CredentialChanges, { subscribe: (onChange) => store.watch(onChange) })
    })
  )
)
