/**
 * The reference server loads effect's modules without their comments. V8 keeps every module's
 * source text for as long as the module lives, and effect's published JavaScript is mostly
 * documentation: the 292 modules of effect and @effect/* an idle server loads are 6.8 MB of heap,
 * 2.4 MB without their comment lines, as several files hold a character outside Latin-1 only in a
 * comment (a box drawing in an example) and V8 keeps such a file at two bytes a character. Idle RSS
 * 123.1 → 119.3 MB (medians, lower in 5 of 5 alternating starts, bench/idle.ts).
 *
 * Only whole lines go: a line that is a `//` comment, and the lines of a block comment that opens
 * a line and closes one with nothing after it, each become an empty line. Every line that keeps
 * code keeps its number and its columns, so stack traces, `--enable-source-maps` and the
 * `//# sourceMappingURL` line (kept) read as before. A line of a multi-line string or template
 * that looked like a comment would change its value; test/LibraryComments.test.ts checks that no
 * file of the installed effect packages has one (their code with and without is the same).
 *
 * The hook is registered by bin.ts before the server's first import of effect: Node parses a
 * module graph before it runs any of it. `module.registerHooks` runs in this thread, at module
 * load only (`module.register`'s hooks would run in a worker thread of their own).
 */
import { registerHooks } from "node:module"

/** Where effect's and @effect/*'s published modules are, in the URLs Node's loader names them by. */
const LIBRARY = /\/node_modules\/(?:effect|@effect\/[^/]+)\/dist\//

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
const SPACE = 0x20
const TAB = 0x09
const SLASH = 0x2f
const STAR = 0x2a
const HASH = 0x23
const AT = 0x40

const isBlank = (byte: number | undefined): boolean => byte === SPACE || byte === TAB || byte === CARRIAGE_RETURN

/** `source` (UTF-8) with every comment-only line emptied; the same number of lines. */
export const strip = (bytes: Uint8Array): Uint8Array => {
  // A Buffer's indexOf finds the two bytes closing a block comment natively.
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Uint8Array(source.length)
  let written = 0
  let position = 0
  while (position < source.length) {
    const newline = source.indexOf(NEWLINE, position)
    const lineEnd = newline === -1 ? source.length : newline
    let first = position
    while (first < lineEnd && isBlank(source[first])) first++
    const opensComment = source[first] === SLASH
    // `//# sourceMappingURL=` and `//@ …` are read by tools; they stay.
    if (opensComment && source[first + 1] === SLASH && source[first + 2] !== HASH && source[first + 2] !== AT) {
      if (newline !== -1) out[written++] = NEWLINE
      position = lineEnd + 1
      continue
    }
    if (opensComment && source[first + 1] === STAR) {
      const commentEnd = blockCommentLineEnd(source, first + 2)
      if (commentEnd !== -1) {
        for (let index = position; index < commentEnd; index++) if (source[index] === NEWLINE) out[written++] = NEWLINE
        if (commentEnd < source.length) out[written++] = NEWLINE
        position = commentEnd + 1
        continue
      }
    }
    const next = newline === -1 ? source.length : newline + 1
    out.set(source.subarray(position, next), written)
    written += next - position
    position = next
  }
  return out.subarray(0, written)
}

/**
 * Where the line that closes the block comment opened before `from` ends (its newline's index, or
 * the source's length), if nothing but blanks follows the comment on that line; otherwise -1.
 */
const blockCommentLineEnd = (source: Buffer, from: number): number => {
  const close = source.indexOf("*/", from)
  if (close === -1) return -1
  let index = close + 2
  while (index < source.length && isBlank(source[index])) index++
  return index === source.length || source[index] === NEWLINE ? index : -1
}

/** Whether a module Node is loading is one `strip` applies to. */
export const isLibraryModule = (url: string): boolean => url.endsWith(".js") && LIBRARY.test(url)

/** Registers the load hook that strips the library modules' comment lines (see the module's note). */
export const register = (): void => {
  registerHooks({
    load: (url, context, nextLoad) => {
      const loaded = nextLoad(url, context)
      const source = loaded.source
      if (loaded.format !== "module" || !isLibraryModule(url) || !(source instanceof Uint8Array)) return loaded
      return { ...loaded, source: strip(source) }
    }
  })
}
