/**
 * The catalogue's refusals (@veche/discovery) as the API's errors, in one table, like
 * `GuildRefusals`. Unmet publication conditions become one 50035 entry per condition, under the
 * condition's name, so a client shows each thing to fix.
 */

import type { DiscoveryErrors } from "@veche/discovery"
import {
  AccountRestricted,
  Banned,
  Conflict,
  FormErrors,
  InvalidFormBody,
  MaxGuildsReached,
  MissingAccess,
  MissingPermissions,
  UnknownGuild,
  VerificationRequired
} from "@veche/errors"
import * as RefusalTable from "./RefusalTable.ts"

/** Form code of an unmet condition (the mirrored platform has none: the catalogue's own). */
export const CONDITION_CODE = "DISCOVERY_REQUIREMENT_UNMET"

const table = {
  NotInCatalogue: () => new UnknownGuild(),
  NotGuildOwner: () => new MissingAccess(),
  NotStaff: () => new MissingPermissions(),
  PublicLimitReached: () => new Conflict(),
  UnknownCategory: () => InvalidFormBody.field(["category"], "BASE_TYPE_CHOICES", "Not a catalogue category."),
  ConditionsUnmet: (refusal: DiscoveryErrors.ConditionsUnmet) =>
    new InvalidFormBody({
      errors: FormErrors.merge(
        ...refusal.unmet.map(({ condition, message }) => FormErrors.field([condition], CONDITION_CODE, message))
      )
    }),
  JoinRefused: (refusal: DiscoveryErrors.JoinRefused) => {
    switch (refusal.reason) {
      case "banned":
        return new Banned()
      case "restricted":
        return new AccountRestricted()
      case "verification":
        return new VerificationRequired()
      case "guild_limit":
        return new MaxGuildsReached()
    }
  }
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
