/**
 * The guilds domain's AccountStandings port, answered from the accounts domain (verification, age)
 * and this one (an active shadow restriction refuses invitations with 20025). It lives here, above
 * both, so guilds imports neither auth nor moderation.
 */
import { AccountsRepo } from "@veche/auth"
import { AccountStandings } from "@veche/guilds"
import { Effect, Layer, Option } from "effect"
import { Moderation } from "./Moderation.ts"

export const layer: Layer.Layer<AccountStandings.AccountStandings, never, AccountsRepo.AccountsRepo | Moderation> =
  Layer.effect(
    AccountStandings.AccountStandings,
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo.AccountsRepo
      const moderation = yield* Moderation
      return AccountStandings.AccountStandings.of({
        read: (userId) =>
          Effect.gen(function* () {
            const [account, restriction] = yield* Effect.all(
              [accounts.findByUserId(userId), moderation.restriction(userId)],
              { concurrency: "unbounded" }
            )
            if (Option.isNone(account)) return Option.none()
            const credentials = account.value.credentials
            return Option.some({
              emailVerified: credentials.email !== null && credentials.emailVerified,
              phoneVerified: credentials.phone !== null,
              createdAt: credentials.createdAt,
              restricted: Option.isSome(restriction)
            })
          })
      })
    })
  )
