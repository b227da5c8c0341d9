/**
 * The guilds domain's AccountStandings port, answered from the accounts domain's AccountLookup (verification, age)
 * and this one (an active shadow restriction refuses invitations with 20025). It lives here, above
 * both, so guilds imports neither auth nor moderation.
 */
import { AccountLookup } from "@veche/auth"
import { AccountStandings } from "@veche/guilds"
import { Effect, Layer, Option } from "effect"
import { Moderation } from "./Moderation.ts"

export const layer: Layer.Layer<AccountStandings.AccountStandings, never, AccountLookup.AccountLookup | Moderation> =
  Layer.effect(
    AccountStandings.AccountStandings,
    Effect.gen(function* () {
      const accounts = yield* AccountLookup.AccountLookup
      const moderation = yield* Moderation
      return AccountStandings.AccountStandings.of({
        read: (userId) =>
          Effect.gen(function* () {
            const [account, restriction] = yield* Effect.all([accounts.read(userId), moderation.restriction(userId)], {
              concurrency: "unbounded"
            })
            if (Option.isNone(account)) return Option.none()
            const { emailVerified, phoneVerified, createdAt } = account.value
            return Option.some({
              emailVerified,
              phoneVerified,
              createdAt,
              restricted: Option.isSome(restriction)
            })
          })
      })
    })
  )
