/**
 * The caller's user as the API shows it, assembled from the stores that hold its parts: the user
 * record, its profile, its credentials (phone masked, e-mail), 2FA and a pending e-mail address.
 */
import { type AccountsRepo, type EmailBinding, type Mfa, Phone } from "@veche/auth"
import { UnknownUser } from "@veche/errors"
import type { Snowflake } from "@veche/platform"
import { Memberships, type Profile, type ProfilesRepo, type User, type UsersRepo } from "@veche/users"
import { Effect, Option } from "effect"

export interface Sources {
  readonly users: UsersRepo.UsersRepo["Service"]
  readonly profiles: ProfilesRepo.ProfilesRepo["Service"]
  readonly accounts: AccountsRepo.AccountsRepo["Service"]
  readonly mfa: Mfa.Mfa["Service"]
  readonly email: EmailBinding.EmailBinding["Service"]
  readonly memberships: Memberships.Memberships["Service"]
}

/** The fields everybody sees. */
export const publicView = (user: User.User, profile: Profile.Profile, bot: boolean) => ({
  id: user.id,
  username: user.username,
  discriminator: "0" as const,
  global_name: user.displayName,
  avatar: profile.avatar,
  banner: profile.banner,
  accent_color: null,
  avatar_decoration_data: null,
  public_flags: 0,
  bot
})

export const make = (sources: Sources) =>
  Effect.fn("CurrentUserView")(function* (userId: Snowflake.Snowflake, bot: boolean) {
    // A valid token whose account is gone (deleted): the account is unknown now.
    const user = yield* Effect.flatMap(sources.users.findById(userId), (found) =>
      Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(new UnknownUser())
    )
    const [profile, account, mfa, pending, joined] = yield* Effect.all(
      [
        sources.profiles.get(userId),
        sources.accounts.findByUserId(userId),
        sources.mfa.status(userId),
        sources.email.pending(userId),
        sources.memberships.guildsOf(userId)
      ],
      { concurrency: "unbounded" }
    )
    const credentials = Option.map(account, (found) => found.credentials)
    const phone = Option.flatMap(credentials, (c) => Option.fromNullishOr(c.phone))
    const email = Option.flatMap(credentials, (c) => Option.fromNullishOr(c.email))
    return {
      ...publicView(user, profile, bot),
      bio: profile.bio ?? "",
      flags: 0,
      premium_type: 0,
      mfa_enabled: mfa.totpEnabled,
      locale: profile.locale,
      verified: Option.exists(credentials, (c) => c.emailVerified),
      email: Option.getOrNull(email),
      ...(Option.isSome(pending) ? { email_pending: pending.value } : {}),
      phone: Option.getOrNull(Option.map(phone, Phone.mask)),
      guild_order: Memberships.effectiveOrder(profile.guildOrder, joined)
    }
  })
