/** The port through which the staff queue asks whether the caller is platform staff (moderation answers it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class CatalogueStaff extends Context.Service<
  CatalogueStaff,
  { readonly isStaff: (userId: Snowflake.Snowflake) => Effect.Effect<boolean> }
>()("@veche/discovery/CatalogueStaff") {}
