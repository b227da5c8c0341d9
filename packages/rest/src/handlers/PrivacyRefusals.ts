/**
 * The privacy domain's refusals (@veche/privacy: account deletion, data export) as the API's
 * errors, in one table, like `GuildRefusals`. `refuse` maps each refusal to its error and passes
 * anything else through, and its type does the same. The privacy routes also meet the accounts
 * domain's refusals (the password re-check, a quota's 429): `refusing` hands those to
 * `AuthRefusals`, so they answer (with their headers) exactly as on every other route.
 */
import { Conflict, InvalidFormBody } from "@veche/errors"
import { Effect } from "effect"
import * as AuthRefusals from "./AuthRefusals.ts"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  /** Deletion asked by the owner of servers with other members: a form error on `guilds`. */
  OwnsGuilds: () =>
    InvalidFormBody.field(["guilds"], "OWNS_GUILDS_WITH_MEMBERS", "Transfer or dissolve the servers you own first."),
  /** An export is asked for while one is being prepared. */
  ExportInProgress: () => new Conflict({ message: "An export is being prepared already." })
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)

/** A privacy route's effect with its refusals, and the accounts domain's it meets, as API errors. */
export const refusing = <A, E, R>(
  self: Effect.Effect<A, E, R>
): ReturnType<typeof AuthRefusals.refusing<A, ApiErrorOf<E>, R>> => AuthRefusals.refusing(Effect.mapError(self, refuse))
