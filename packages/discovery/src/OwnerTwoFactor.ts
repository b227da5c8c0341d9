/** The port through which publication asks whether the owner has two-factor authentication (auth answers it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class OwnerTwoFactor extends Context.Service<
  OwnerTwoFactor,
  { readonly hasTwoFactor: (userId: Snowflake.Snowflake) => Effect.Effect<boolean> }
>()("@veche/discovery/OwnerTwoFactor") {}
