/**
 * The port through which an application's icon is stored (checked, re-encoded, kept where the
 * media route `GET /app-icons/{application_id}/{hash}` serves it). Media answers it (the kit wires
 * it over ProfileImages), like the users domain's UserImages. `layerNone` answers as a host without
 * image storage does.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"
import { type IconRefused, IconStorageNotConnected, type IconStorageUnavailable } from "./ApplicationsErrors.ts"

export class ApplicationIcons extends Context.Service<
  ApplicationIcons,
  {
    /** Checks and stores the image of a data URI as the application's icon; answers its hash. */
    readonly store: (
      applicationId: Snowflake.Snowflake,
      dataUri: string
    ) => Effect.Effect<string, IconRefused | IconStorageNotConnected | IconStorageUnavailable>
    /**
     * Deletes an icon the application stopped showing. Never the caller's failure: the change that
     * dropped it stands, and a failed delete only leaves an orphan (the adapter logs it).
     */
    readonly remove: (applicationId: Snowflake.Snowflake, hash: string) => Effect.Effect<void>
  }
>()("@veche/applications/ApplicationIcons") {
  static readonly layerNone: Layer.Layer<ApplicationIcons> = Layer.succeed(
    ApplicationIcons,
    ApplicationIcons.of({ store: () => Effect.fail(new IconStorageNotConnected()), remove: () => Effect.void })
  )
}
