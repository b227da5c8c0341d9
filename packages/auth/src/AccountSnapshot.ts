/**
 * Everything CurrentUser shows about an account, read in one step: the hot path of every client
 * start (`GET /users/@me`). The memory adapter gathers it from the repositories (users and profiles through the users domain's UserRecords); the PostgreSQL one
 * is a single query over users, credentials, profiles, 2FA and the newest open confirmation link.
 */
import type { Snowflake } from "@veche/platform"
import { type Profile, type User, UserRecords } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import { MfaRepo } from "./MfaRepo.ts"

export interface Snapshot {
  readonly user: User.User
  readonly profile: Profile.Profile
  readonly phone: string | null
  readonly email: string | null
  readonly emailVerified: boolean
  readonly mfaEnabled: boolean
  /** The address waiting for its confirmation link, if any. */
  readonly emailPending: string | null
}

export class AccountSnapshots extends Context.Service<
  AccountSnapshots,
  { readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Snapshot>> }
>()("@veche/auth/AccountSnapshots") {
  /** From the repositories and the users domain's UserRecords, one lookup each (memory hosts). */
  static readonly layerFromRepos: Layer.Layer<
    AccountSnapshots,
    never,
    UserRecords.UserRecords | AccountsRepo | MfaRepo | EmailLinksRepo
  > = Layer.effect(
    AccountSnapshots,
    Effect.gen(function* () {
      const records = yield* UserRecords.UserRecords
      const accounts = yield* AccountsRepo
      const mfa = yield* MfaRepo
      const links = yield* EmailLinksRepo
      return AccountSnapshots.of({
        read: Effect.fnUntraced(function* (userId: Snowflake.Snowflake) {
          const user = yield* records.findUser(userId)
          if (Option.isNone(user)) return Option.none()
          const profile = yield* records.findProfile(userId)
          const credentials = Option.map(yield* accounts.findByUserId(userId), (account) => account.credentials)
          const totp = yield* mfa.find(userId)
          const pending = yield* links.newestOpen(userId, "bind", yield* DateTime.now)
          return Option.some({
            user: user.value,
            profile,
            phone: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.phone))),
            email: Option.getOrNull(Option.flatMap(credentials, (c) => Option.fromNullishOr(c.email))),
            emailVerified: Option.exists(credentials, (c) => c.emailVerified),
            mfaEnabled: Option.isSome(totp),
            emailPending: Option.getOrNull(Option.map(pending, (link) => link.email))
          } satisfies Snapshot)
        })
      })
    })
  )
}
