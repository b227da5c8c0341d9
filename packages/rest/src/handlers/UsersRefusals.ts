/**
 * The users domain's refusals (@veche/users: profiles, settings, the current user, relationships)
 * as the API's errors, in one table, like `GuildRefusals`. `refuse` maps each refusal to its error
 * and passes anything else through, and its type does the same, so a handler's error type is
 * exactly the errors its endpoint declares.
 */
import { InvalidFormBody, NotImplemented, ServiceUnavailable, UnknownUser } from "@veche/errors"
import type { UsersErrors } from "@veche/users"

const table = {
  /** An unknown user, or the caller's own account gone while its token was still valid. */
  NoSuchUser: () => new UnknownUser(),
  /** A refused upload: 400 50035 on the image's field, with media's code and message. */
  ImageRefused: (refusal: UsersErrors.ImageRefused) =>
    InvalidFormBody.field([refusal.field], refusal.code, refusal.message),
  ImageStorageNotConnected: () => new NotImplemented(),
  ImageStorageUnavailable: () => new ServiceUnavailable()
} as const

type Table = typeof table

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = E extends { readonly _tag: infer Tag }
  ? Tag extends keyof Table
    ? ReturnType<Table[Tag]>
    : E
  : E

export const refuse = <E>(error: E): ApiErrorOf<E> => {
  const tag = (error as { readonly _tag?: unknown })._tag
  if (typeof tag === "string" && Object.hasOwn(table, tag)) {
    const make = table[tag as keyof Table] as (refusal: never) => unknown
    return make(error as never) as ApiErrorOf<E>
  }
  return error as ApiErrorOf<E>
}
