/**
 * The caller's user as the API shows it: one account snapshot (a single query on PostgreSQL: this is
 * the hot path of every client start) and the user's servers for the guild order.
 */
import { type AccountSnapshot, Phone } from "@veche/auth"
import { UnknownUser } from "@veche/errors"
import type { Snowflake } from "@veche/platform"
import { Memberships, PublicUser } from "@veche/users"
import { Effect, Option } from "effect"

export interface Sources {
  readonly snapshots: AccountSnapshot.AccountSnapshots["Service"]
  readonly memberships: Memberships.Memberships["Service"]
}

/** The fields everybody sees. */
export const publicView = PublicUser.view

export const make = (sources: Sources) =>
  // Untraced: GET /users/@me is the hottest route there is (see Sessions.authenticate).
  Effect.fnUntraced(function* (userId: Snowflake.Snowflake, bot: boolean) {
    const [found, joined] = yield* Effect.all([sources.snapshots.read(userId), sources.memberships.guildsOf(userId)], {
      concurrency: "unbounded"
    })
    // A valid token whose account is gone (deleted): the account is unknown now.
    if (Option.isNone(found)) return yield* new UnknownUser()
    const snapshot = found.value
    return {
      ...publicView(snapshot.user, snapshot.profile, bot),
      bio: snapshot.profile.bio ?? "",
      flags: 0,
      premium_type: 0,
      mfa_enabled: snapshot.mfaEnabled,
      locale: snapshot.profile.locale,
      verified: snapshot.emailVerified,
      email: snapshot.email,
      ...(snapshot.emailPending === null ? {} : { email_pending: snapshot.emailPending }),
      phone: snapshot.phone === null ? null : Phone.mask(Phone.Normalised.make(snapshot.phone)),
      guild_order: Memberships.effectiveOrder(snapshot.profile.guildOrder, joined)
    }
  })
