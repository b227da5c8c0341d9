/**
 * The moderation domain's refusals (@veche/moderation: staff blocks and restrictions) as the API's
 * errors, in one table, like `GuildRefusals`. `refuse` maps each refusal to its error and passes
 * anything else through, and its type does the same, so a handler's error type is exactly the
 * errors its endpoint declares.
 */
import { InvalidFormBody, MissingPermissions, UnknownUser } from "@veche/errors"
import * as RefusalTable from "./RefusalTable.ts"

/** 400 50035 with one problem on one field, as the mirrored platform answers a refused form. */
const onField = (field: string, code: string, message: string) => InvalidFormBody.field([field], code, message)

const table = {
  NotStaff: () => new MissingPermissions(),
  NoSuchUser: () => new UnknownUser(),
  CannotBlockSelf: () => onField("user_id", "CANNOT_BLOCK_SELF", "You cannot block yourself."),
  BlockEndInPast: () => onField("until", "BASE_TYPE_BAD_DATE", "The end must be in the future."),
  CannotRestrictSelf: () => onField("user_id", "CANNOT_RESTRICT_SELF", "You cannot restrict yourself."),
  RestrictionEndInPast: () => onField("until", "BASE_TYPE_BAD_DATE", "The end must be in the future.")
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
