/**
 * The port through which the catalogue's staff actions reach the staff audit log (moderation's
 * AuditLog answers it): a state set on a guild, the disallowed words changed.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export type Audited =
  | {
      readonly kind: "state"
      readonly staffId: Snowflake.Snowflake
      readonly guildId: Snowflake.Snowflake
      readonly state: string
      readonly previous: string
      readonly reason: string | null
    }
  | {
      readonly kind: "words"
      readonly staffId: Snowflake.Snowflake
      readonly added: ReadonlyArray<string>
      readonly removed: ReadonlyArray<string>
    }

export class CatalogueAudit extends Context.Service<
  CatalogueAudit,
  { readonly record: (action: Audited) => Effect.Effect<void> }
>()("@veche/discovery/CatalogueAudit") {}
