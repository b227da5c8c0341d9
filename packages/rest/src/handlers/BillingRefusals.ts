/**
 * Billing's refusals (@veche/billing) as the API's errors, in one table, like `GuildRefusals`.
 * The webhook's only failures are an untrusted source (403) and the provider being unreachable
 * (503: YooKassa delivers again within 24 hours).
 */
import {
  BadGateway,
  Conflict,
  Forbidden,
  InvalidFormBody,
  MissingAccess,
  MissingPermissions,
  NotFound,
  NotImplemented,
  UnknownUser
} from "@veche/errors"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  PaymentsNotConnected: () => new NotImplemented(),
  UnknownPlan: () => InvalidFormBody.field(["plan"], "BASE_TYPE_CHOICES", "Not a plan on sale."),
  BadPhone: () => InvalidFormBody.field(["phone"], "PHONE_NUMBER_INVALID", "A Russian phone number: +7 and 10 digits."),
  ProviderUnavailable: () => new BadGateway(),
  UntrustedSource: () => new Forbidden(),
  NoFreeBoost: () => new Conflict(),
  NotYourBoost: () => new MissingPermissions(),
  UnknownBoost: () => new NotFound(),
  NotGuildMember: () => new MissingAccess(),
  NotStaff: () => new MissingPermissions(),
  UnknownUser: () => new UnknownUser()
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
