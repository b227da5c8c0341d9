/**
 * Collects every log line an effect writes, so tests can check that secrets never reach a log.
 */
import { Effect, Logger } from "effect"

const render = (message: unknown): string =>
  (Array.isArray(message) ? message : [message])
    .map((part) => (typeof part === "string" ? part : JSON.stringify(part)))
    .join(" ")

/** Runs `effect` with a logger that records each line (and no other logger); returns the lines too. */
export const capture = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ message }) => {
    lines.push(render(message))
  })
  return effect.pipe(
    Effect.provide(Logger.layer([logger])),
    Effect.exit,
    Effect.map((exit) => ({ exit, lines }))
  )
}
