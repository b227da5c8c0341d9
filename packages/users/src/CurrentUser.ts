/**
 * The caller's own user as the API shows it (what `GET /users/@me` answers, and every route that
 * changes the account answers after the change): the public fields, the account's contact details
 * and two-factor state from the accounts domain (AccountDetails, one step: the hot path of every
 * client start), the guild order over the servers the user is in (Memberships) and `premium_type`
 * from what the account is entitled to (ProfileEntitlements: billing's Plus where the host has
 * billing). When the request's token lookup already read all three (`CurrentUserPrefetch`), nothing
 * is read again.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import { AccountDetails, type Details } from "./AccountDetails.ts"
import { CurrentUserPrefetch } from "./CurrentUserPrefetch.ts"
import { effectiveOrder, Memberships } from "./Memberships.ts"
import type { Profile } from "./Profile.ts"
import { ProfileEntitlements } from "./ProfileEntitlements.ts"
import * as PublicUser from "./PublicUser.ts"
import type { User } from "./User.ts"
import { NoSuchUser } from "./UsersErrors.ts"

/** CurrentUser in the mirrored platform's shape (wire names). */
export interface View extends PublicUser.PublicUser {
  readonly bio: string
  readonly flags: number
  readonly premium_type: number
  readonly mfa_enabled: boolean
  readonly locale: string
  /** The e-mail address is confirmed. */
  readonly verified: boolean
  readonly email: string | null
  /** Present while an address waits for its confirmation link to be followed. */
  readonly email_pending?: string
  /** Always masked. */
  readonly phone: string | null
  readonly guild_order: ReadonlyArray<Snowflake.Snowflake>
}

const render = (
  account: Details,
  joined: ReadonlyArray<Snowflake.Snowflake>,
  premiumType: number,
  bot: boolean
): View => ({
  ...PublicUser.view(account.user, account.profile, bot),
  bio: account.profile.bio ?? "",
  flags: 0,
  premium_type: premiumType,
  mfa_enabled: account.mfaEnabled,
  locale: account.profile.locale,
  verified: account.emailVerified,
  email: account.email,
  ...(account.emailPending === null ? {} : { email_pending: account.emailPending }),
  phone: account.maskedPhone,
  guild_order: effectiveOrder(account.profile.guildOrder, joined)
})

/** What a gateway session starts from: the view, what it was built from, and the user's guilds. */
export interface Read {
  readonly view: View
  readonly user: User
  readonly profile: Profile
  /** The guilds the user is in, oldest membership first (`Memberships.guildsOf`). */
  readonly guildIds: ReadonlyArray<Snowflake.Snowflake>
}

export class CurrentUser extends Context.Service<
  CurrentUser,
  {
    /** The user behind a valid credential; `bot` when it is a bot's. NoSuchUser: the account is gone. */
    readonly view: (userId: Snowflake.Snowflake, bot: boolean) => Effect.Effect<View, NoSuchUser>
    /**
     * The same view with the guild list and the user and profile it was read with, so that an
     * IDENTIFY reads none of them again (READY's guilds, each GUILD_CREATE's member). Never from
     * the request's prefetch: a session reads afresh once it listens.
     */
    readonly read: (userId: Snowflake.Snowflake, bot: boolean) => Effect.Effect<Read, NoSuchUser>
  }
>()("@veche/users/CurrentUser") {
  static readonly layer: Layer.Layer<CurrentUser, never, AccountDetails | Memberships> = Layer.effect(
    CurrentUser,
    Effect.gen(function* () {
      const accounts = yield* AccountDetails
      const memberships = yield* Memberships
      const entitlements = yield* ProfileEntitlements
      const premiumTypeOf = (userId: Snowflake.Snowflake) =>
        Effect.map(entitlements.of(userId), (entitled) => entitled.premiumType)
      // A valid token whose account is gone (deleted): the account is unknown now.
      const shown = (
        found: Option.Option<Details>,
        joined: ReadonlyArray<Snowflake.Snowflake>,
        premiumType: number,
        bot: boolean
      ): Effect.Effect<View, NoSuchUser> =>
        Option.isNone(found)
          ? Effect.fail(new NoSuchUser())
          : Effect.succeed(render(found.value, joined, premiumType, bot))
      return CurrentUser.of({
        // GET /users/@me is the hottest route there is: untraced (see Sessions.authenticate), and
        // with the request's prefetch one synchronous step, no generator.
        view: (userId: Snowflake.Snowflake, bot: boolean) =>
          Effect.withFiber((fiber) => {
            const prefetched = fiber.getRef(CurrentUserPrefetch)
            if (prefetched !== undefined && prefetched.userId === userId) {
              return shown(prefetched.details, prefetched.guildIds, prefetched.premiumType, bot)
            }
            return Effect.flatMap(
              Effect.all([accounts.read(userId), memberships.guildsOf(userId), premiumTypeOf(userId)], {
                concurrency: "unbounded"
              }),
              ([found, joined, premiumType]) => shown(found, joined, premiumType, bot)
            )
          }),
        read: Effect.fnUntraced(function* (userId: Snowflake.Snowflake, bot: boolean) {
          const [found, guildIds, premiumType] = yield* Effect.all(
            [accounts.read(userId), memberships.guildsOf(userId), premiumTypeOf(userId)],
            { concurrency: "unbounded" }
          )
          if (Option.isNone(found)) return yield* new NoSuchUser()
          const account = found.value
          return {
            view: render(account, guildIds, premiumType, bot),
            user: account.user,
            profile: account.profile,
            guildIds
          }
        })
      })
    })
  )
}
