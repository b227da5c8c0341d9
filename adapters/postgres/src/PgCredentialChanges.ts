/**
 * `CredentialChanges` (`@veche/platform`) from the principal cache's notifications: the triggers of
 * migration 0030 name the user whenever a session, token, block, credential or the account itself
 * changes (a new session or token excepted, migration 0031), and a bot's token reset or its
 * application deleted (migration 0033), on whichever node wrote it, and every node's connections
 * hear it. The gateway then asks whether that user's sessions' login sessions (a bot's token) still
 * hold. Without the cache (a client built elsewhere, not listening) nothing is provided, and the
 * Reference's default hears nothing.
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
