/**
 * The port to the staff-edited disallowed words (the operator's `SERVICE_DISCOVERY_DISALLOWED_WORDS`
 * apply besides them), and its in-memory adapter. Words are stored normalised (`Words.normalize`,
 * trimmed), so a list is compared as the check compares text.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, Effect, Layer, Ref } from "effect"

export interface Change {
  readonly added: ReadonlyArray<string>
  readonly removed: ReadonlyArray<string>
}

export class WordsRepo extends Context.Service<
  WordsRepo,
  {
    /** Every word, in code-point order. */
    readonly list: Effect.Effect<ReadonlyArray<string>>
    /** Makes the list exactly `words` (already normalised, distinct); answers what changed. */
    readonly replace: (
      words: ReadonlyArray<string>,
      by: Snowflake.Snowflake,
      now: DateTime.Utc
    ) => Effect.Effect<Change>
  }
>()("@veche/discovery/WordsRepo") {
  static readonly layerMemory: Layer.Layer<WordsRepo> = Layer.effect(
    WordsRepo,
    Effect.map(Ref.make<ReadonlySet<string>>(new Set()), (stored) =>
      WordsRepo.of({
        list: Effect.map(Ref.get(stored), (all) => [...all].sort()),
        replace: (words) =>
          Ref.modify(stored, (all): [Change, ReadonlySet<string>] => {
            const next = new Set(words)
            return [
              {
                added: [...next].filter((word) => !all.has(word)).sort(),
                removed: [...all].filter((word) => !next.has(word)).sort()
              },
              next
            ]
          })
      })
    )
  )
}
