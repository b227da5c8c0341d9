/** The port through which creation asks whether a user has two-factor authentication (auth answers it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class OwnerSecurity extends Context.Service<
  OwnerSecurity,
  { readonly hasTwoFactor: (userId: Snowflake.Snowflake) => Effect.Effect<boolean> }
>()("@veche/applications/OwnerSecurity") {}
