/**
 * The ZIP port: packs named files into one archive (the data export's). The library is the host's
 * choice (`FflateZipWriter` in `@veche/zip`), so this package installs no archiver.
 */
import { Context, type Effect } from "effect"

/** One file of the archive: its path inside it and its bytes. */
export interface ZipEntry {
  readonly name: string
  readonly bytes: Uint8Array
}

export class ZipWriter extends Context.Service<
  ZipWriter,
  {
    /** The ZIP of the entries, in their order; a standard archive every unzip tool reads. */
    readonly zip: (entries: ReadonlyArray<ZipEntry>) => Effect.Effect<Uint8Array>
  }
>()("@veche/privacy/ZipWriter") {}
