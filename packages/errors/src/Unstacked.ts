/**
 * Builds an error without capturing a stack trace, for refusals that are expected and frequent
 * (a 429 for every request over a limit): nobody reads their stack, and capturing it was most of
 * what such an answer cost the server.
 */
export const unstacked = <A>(make: () => A): A => {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return make()
  } finally {
    Error.stackTraceLimit = limit
  }
}
