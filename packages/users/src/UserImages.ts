/**
 * The port through which the users domain stores the images a user shows (avatar, banner). Checking,
 * re-encoding and storage belong to the media package, which answers it (`@veche/media`
 * MediaUserImages), like `Memberships` answered by the guilds domain. `layerNone` answers as a host
 * without image storage does.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"
import { type ImageRefused, ImageStorageNotConnected, type ImageStorageUnavailable } from "./UsersErrors.ts"

export type Kind = "avatar" | "banner"

export type Animation = "keep" | "first_frame"

export class UserImages extends Context.Service<
  UserImages,
  {
    /**
     * Checks and stores the image of a data URI as the user's `kind`; answers its hash. A refused
     * image is an `ImageRefused` on the field named like the kind. `animation`: an animated image
     * keeps its frames (`keep`) or is stored as its first frame, still (`first_frame`).
     */
    readonly store: (
      kind: Kind,
      userId: Snowflake.Snowflake,
      dataUri: string,
      animation: Animation
    ) => Effect.Effect<string, ImageRefused | ImageStorageNotConnected | ImageStorageUnavailable>
    /**
     * Deletes an image the user stopped showing. Never the caller's failure: the change that
     * dropped it stands, and a failed delete only leaves an orphan (the adapter logs it).
     */
    readonly remove: (kind: Kind, userId: Snowflake.Snowflake, hash: string) => Effect.Effect<void>
  }
>()("@veche/users/UserImages") {
  static readonly layerNone: Layer.Layer<UserImages> = Layer.succeed(
    UserImages,
    UserImages.of({ store: () => Effect.fail(new ImageStorageNotConnected()), remove: () => Effect.void })
  )
}
