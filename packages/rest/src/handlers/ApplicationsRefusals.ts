/**
 * The applications domain's refusals (@veche/applications) as the API's errors, in one table, like
 * `GuildRefusals`. `refuse` maps each refusal to its error and passes anything else through, and
 * its type does the same, so a handler's error type is exactly the errors its endpoint declares.
 */
import type { ApplicationsErrors } from "@veche/applications"
import {
  InvalidFormBody,
  MaxApplicationsReached,
  MissingAccess,
  NotImplemented,
  ServiceUnavailable,
  TwoFactorRequiredForOperation,
  UnknownApplication
} from "@veche/errors"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  NoSuchApplication: () => new UnknownApplication(),
  NotApplicationOwner: () => new MissingAccess(),
  ApplicationLimitReached: () => new MaxApplicationsReached(),
  MfaRequired: () => new TwoFactorRequiredForOperation(),
  /** A refused upload: 400 50035 on `icon`, with media's code and message. */
  IconRefused: (refusal: ApplicationsErrors.IconRefused) =>
    InvalidFormBody.field(["icon"], refusal.code, refusal.message),
  IconStorageNotConnected: () => new NotImplemented(),
  IconStorageUnavailable: () => new ServiceUnavailable()
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
