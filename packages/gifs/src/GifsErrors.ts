/** Refusals of the GIF proxy, named for the condition (API answers: rest's GifsRefusals). */
import { Schema } from "effect"

/**
 * The provider could not be asked, failed, took too long or answered something we cannot read
 * (502). `reason` is for the log: it never carries the provider's key or its raw answer.
 */
export class GifProviderUnavailable extends Schema.TaggedError<GifProviderUnavailable>()("GifProviderUnavailable", {
  reason: Schema.String
}) {}
