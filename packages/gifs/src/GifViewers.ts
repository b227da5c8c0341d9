/**
 * The port through which the GIF proxy learns what the provider's answer should suit: the user's
 * locale (their settings) and birth date (the content filter). The kit answers it from the users
 * domain (Profiles' settings) and the accounts domain (AccountLookup). Bots have no birth date.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export interface Viewer {
  /** The settings' locale as stored (`ru`, `en-US`, …). */
  readonly locale: string
  /** `YYYY-MM-DD`, or null when not known (bots). */
  readonly dateOfBirth: string | null
}

export class GifViewers extends Context.Service<
  GifViewers,
  { readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Viewer> }
>()("@veche/gifs/GifViewers") {}
