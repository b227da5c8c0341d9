/**
 * Word that what a user's credentials prove may have changed (a login session revoked, a password
 * changed, the account blocked or erased, a bot's token reset), as the store learns it. Holders of
 * long-lived authenticated connections (the gateway's sessions) ask the store again when they hear
 * it, instead of only at their next periodic check.
 *
 * Word may come for changes that revoke nothing (a profile edit, a session's use), and more than
 * once for one change: a listener asks, it does not conclude. A Reference whose default hears
 * nothing: a host without such word (memory stores) relies on the periodic checks alone.
 * PostgreSQL answers it from the triggers its principal cache listens to (`@veche/postgres`
 * PgCredentialChanges), on every node, for a write by any of them.
 */
import { Context } from "effect"

/** A user id, or `*`: anything about anyone may have changed (the store lost track). */
export type Changed = string

export const EVERYONE: Changed = "*"

export interface Source {
  /** Calls `onChange` for each word from now on, synchronously; what it returns stops that. */
  readonly subscribe: (onChange: (changed: Changed) => void) => () => void
}

export const CredentialChanges: Context.Reference<Source> = Context.Reference<Source>(
  "@veche/platform/CredentialChanges",
  { defaultValue: () => ({ subscribe: () => () => {} }) }
)
