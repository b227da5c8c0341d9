/**
 * The users domain's AccountDetails port answered from the account snapshot (one step; a single
 * query on PostgreSQL). The phone number leaves the accounts domain masked: only this domain knows
 * how a number is shown to its owner.
 */
import { AccountDetails } from "@veche/users"
import { Effect, Layer, Option } from "effect"
import { AccountSnapshots, type Snapshot } from "./AccountSnapshot.ts"
import * as Phone from "./Phone.ts"

/** The snapshot as the users domain sees it (the phone masked). */
export const detailsOf = (snapshot: Snapshot): AccountDetails.Details => ({
  user: snapshot.user,
  profile: snapshot.profile,
  maskedPhone: snapshot.phone === null ? null : Phone.mask(Phone.Normalised.make(snapshot.phone)),
  email: snapshot.email,
  emailVerified: snapshot.emailVerified,
  mfaEnabled: snapshot.mfaEnabled,
  emailPending: snapshot.emailPending
})

export const layer: Layer.Layer<AccountDetails.AccountDetails, never, AccountSnapshots> = Layer.effect(
  AccountDetails.AccountDetails,
  Effect.map(Effect.service(AccountSnapshots), (snapshots) =>
    AccountDetails.AccountDetails.of({
      read: (userId) => Effect.map(snapshots.read(userId), Option.map(detailsOf))
    })
  )
)
