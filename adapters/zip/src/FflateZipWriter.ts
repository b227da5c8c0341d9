/**
 * `@veche/privacy`'s ZipWriter with fflate: a synchronous, pure-JavaScript ZIP (deflate, fflate's
 * default level). Export archives are a few small JSON files built by a background worker, so the
 * synchronous call costs little and needs no worker thread.
 */
import { ZipWriter } from "@veche/privacy"
import { Effect, Layer } from "effect"
import { zipSync } from "fflate"

/** The writer. Entries keep their order; a name given twice keeps its last bytes. */
export const layer: Layer.Layer<ZipWriter.ZipWriter> = Layer.succeed(
  ZipWriter.ZipWriter,
  ZipWriter.ZipWriter.of({
    zip: (entries) => Effect.sync(() => zipSync(Object.fromEntries(entries.map((entry) => [entry.name, entry.bytes]))))
  })
)
