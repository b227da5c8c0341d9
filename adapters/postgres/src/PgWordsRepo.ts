/**
 * WordsRepo on PostgreSQL (`discovery_words`, migration 0027): replacing the list is one
 * transaction (delete the words not kept, insert the new ones), answering what changed.
 */
import { WordsRepo } from "@veche/discovery"
import { DateTime, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

export const layer: Layer.Layer<WordsRepo.WordsRepo, never, SqlClient.SqlClient> = Layer.effect(
  WordsRepo.WordsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const list = Effect.map(
      sql<{ readonly word: string }>`SELECT word FROM discovery_words ORDER BY word COLLATE "C"`.pipe(Effect.orDie),
      (rows) => rows.map((row) => row.word)
    )
    return WordsRepo.WordsRepo.of({
      list,
      replace: (words, by, now) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const removed = yield* sql<{ readonly word: string }>`
                DELETE FROM discovery_words
                WHERE word NOT IN (SELECT jsonb_array_elements_text(${JSON.stringify(words)}::jsonb))
                RETURNING word`
              const added: Array<string> = []
              for (const word of words) {
                const inserted = yield* sql<{ readonly word: string }>`
                  INSERT INTO discovery_words (word, added_by, added_at)
                  VALUES (${word}, ${by}, ${DateTime.toDateUtc(now)})
                  ON CONFLICT (word) DO NOTHING RETURNING word`
                if (inserted.length > 0) added.push(word)
              }
              const sorted = (values: ReadonlyArray<string>) => [...values].sort()
              return { added: sorted(added), removed: sorted(removed.map((row) => row.word)) }
            })
          )
          .pipe(Effect.orDie)
    })
  })
)
