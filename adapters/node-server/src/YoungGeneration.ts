/**
 * V8's young generation held at its smallest through the start, and let grow once the server
 * listens.
 *
 * V8 doubles the young generation after a scavenge when enough has survived since it last grew, up
 * to `--max-semi-space-size` (8 MB a half for this server, NodeFlags.ts). Loading the modules and
 * building the layers keeps most of what they allocate, so the start alone takes it to the most:
 * 16 MB resident, of which an idle server uses 1–2. Nothing shrinks it again until a memory-reducing
 * full collection, which an idle server never runs (docs/traps.md). Held at V8's smallest (1 MB a
 * half) until it listens, the server idles ≈16 MB smaller; under load it grows to the same size as
 * before within seconds.
 *
 * V8 reads `--semi-space-growth-factor` each time it considers growing, so setting it with
 * `v8.setFlagsFromString` takes effect at the next scavenge: a factor of 1 keeps the size, and
 * V8's default of 2 is restored at `release`. An operator who sets the factor on Node's command
 * line (`node --semi-space-growth-factor=2 …/bin.js`; `NODE_OPTIONS` does not accept this flag)
 * keeps it, and nothing is held. bin.ts calls `hold` before it loads the server and
 * Launch.ts calls `release` once the server listens. A host of one's own does the same from an
 * entry module that imports nothing else before it, then `await import()`s the rest
 * (`@veche/node-server/YoungGeneration`): an ES module's static imports all run before its first
 * line. This module imports no library for that reason.
 */
import { setFlagsFromString } from "node:v8"

/** V8's own default: the size doubles at each growth. */
const V8_DEFAULT_FACTOR = 2

/** Whether Node was started with its own growth factor (either spelling of V8's flag). */
export const setByOperator = (execArgv: ReadonlyArray<string>): boolean =>
  execArgv.some((argument) => argument.replaceAll("_", "-").startsWith("--semi-space-growth-factor"))

let held = false

/** Keeps the young generation at its current size until `release`, unless the operator set the factor. */
export const hold = (execArgv: ReadonlyArray<string> = process.execArgv): void => {
  if (held || setByOperator(execArgv)) return
  setFlagsFromString("--semi-space-growth-factor=1")
  held = true
}

/** Lets the young generation grow again as V8 would; does nothing when `hold` held nothing. */
export const release = (): void => {
  if (!held) return
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_FACTOR}`)
  held = false
}
