/**
 * The users domain's refusals (@veche/users: profiles, settings, the current user, relationships)
 * as the API's errors, in one table, like `GuildRefusals`. `refuse` maps each refusal to its error
 * and passes anything else through, and its type does the same, so a handler's error type is
 * exactly the errors its endpoint declares.
 */
import { InvalidFormBody, NotImplemented, ServiceUnavailable, UnknownUser } from "@veche/errors"
import type { UsersErrors } from "@veche/users"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  /** An unknown user, or the caller's own account gone while its token was still valid. */
  NoSuchUser: () => new UnknownUser(),
  /** A refused upload: 400 50035 on the image's field, with media's code and message. */
  ImageRefused: (refusal: UsersErrors.ImageRefused) =>
    InvalidFormBody.field([refusal.field], refusal.code, refusal.message),
  /** A banner without Plus: 400 50035 on `banner`, as the mirrored platform answers it. */
  BannerRequiresPlus: () =>
    InvalidFormBody.field(["banner"], "BANNER_REQUIRES_PREMIUM", "Profile banners require Veche Plus"),
  ImageStorageNotConnected: () => new NotImplemented(),
  ImageStorageUnavailable: () => new ServiceUnavailable()
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
