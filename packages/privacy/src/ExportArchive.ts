/**
 * What a data export contains: everything the platform holds about the user, as JSON files in a
 * ZIP (packed by the host's `ZipWriter`), collected from every domain's part of `PersonalData` in
 * export order, with a README naming each file. Parts never give secrets (no password hash, TOTP
 * secret, backup codes, tokens or link secrets). Messages and server contents join with their domains.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { Context, Effect, Layer } from "effect"
import { ZipWriter } from "./ZipWriter.ts"

const utf8 = (text: string) => new TextEncoder().encode(text)
const json = (value: unknown) => utf8(`${JSON.stringify(value, null, 2)}\n`)

const HEADER = "This archive holds what Veche keeps about your account, as JSON:"
const FOOTER = "Secrets (your password, two-factor secret, codes and tokens) are never exported."
/** File names are padded to this width in the README, so the descriptions line up. */
const NAME_WIDTH = 13

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

interface File {
  about: string | undefined
  content: unknown
}

/**
 * The sections as files, in the order they first appear: objects given for the same file are
 * merged field by field (in export order); any other value stands alone (the later one wins).
 */
const filesOf = (sections: ReadonlyArray<PersonalData.Section>): ReadonlyMap<string, File> => {
  const files = new Map<string, File>()
  for (const section of sections) {
    const current = files.get(section.file)
    if (current === undefined) {
      files.set(section.file, { about: section.about, content: section.content })
      continue
    }
    current.about ??= section.about
    current.content =
      isRecord(current.content) && isRecord(section.content)
        ? { ...current.content, ...section.content }
        : section.content
  }
  return files
}

const readme = (files: ReadonlyMap<string, File>) =>
  [
    HEADER,
    ...[...files].map(([name, file]) => `${name.padEnd(NAME_WIDTH)} ${file.about ?? ""}`.trimEnd()),
    FOOTER,
    ""
  ].join("\n")

export class ExportArchive extends Context.Service<
  ExportArchive,
  { readonly build: (userId: Snowflake.Snowflake) => Effect.Effect<Uint8Array> }
>()("@veche/privacy/ExportArchive") {
  static readonly layer: Layer.Layer<ExportArchive, never, PersonalData.PersonalData | ZipWriter> = Layer.effect(
    ExportArchive,
    Effect.gen(function* () {
      const personalData = yield* PersonalData.PersonalData
      const zipWriter = yield* ZipWriter

      const build = Spans.fn("ExportArchive.build")(function* (userId: Snowflake.Snowflake) {
        const parts = yield* personalData.parts
        const sections = yield* Effect.forEach(parts, (part) => part.export(userId))
        const files = filesOf(sections.flat())
        return yield* zipWriter.zip([
          { name: "README.txt", bytes: utf8(readme(files)) },
          ...[...files].map(([name, file]) => ({ name, bytes: json(file.content) }))
        ])
      })

      return ExportArchive.of({ build })
    })
  )
}
