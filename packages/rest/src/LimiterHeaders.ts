/**
 * The rate limiter's headers for one routed request, handed to the edge so that the edge's
 * pre-response step sets them with its own CORS headers in one copy of the answer.
 *
 * Left to a pre-response handler of its own, the limiter cost every limited request a second copy
 * of the response's headers, a second handler (two closures) and effect's chaining of the two: a
 * non-eager `flatMap` that sends the whole answer down effect's slower, effectful write path. The
 * edge's handler runs first and the limiter's right after it (handlers run in the order they were
 * added: the edge before routing, the limiter in the route's middleware), and nothing can add a
 * handler between the two, so setting the limiter's headers as the last step of the edge's answers
 * the same headers in the same order.
 *
 * The hand-off rides on the request's platform source (Node's `IncomingMessage`, or the web
 * `Request` in tests): one per request, shared by every view of the request (the forwarded-headers
 * step gives the route a modified copy of the request, with the same source). The edge marks it
 * when it routes a request; without that mark (no edge in front) the limiter adds its own handler.
 */
const SLOT: unique symbol = Symbol("@veche/rest/LimiterHeaders")

/** The edge's mark: it will set the limiter's headers, none yet. */
const AWAITED: Readonly<Record<string, string>> = Object.freeze({})

interface Carrier {
  [SLOT]?: Readonly<Record<string, string>>
}

/** The edge routes this request and will set the limiter's headers (`taken`) on its answer. */
export const await_ = (source: object): void => {
  ;(source as Carrier)[SLOT] = AWAITED
}

/**
 * Gives the limiter's `headers` to the edge if it awaits them (and answers true); otherwise false,
 * and the limiter must set them itself.
 */
export const offer = (source: object, headers: Readonly<Record<string, string>>): boolean => {
  const carrier = source as Carrier
  if (carrier[SLOT] === undefined) return false
  carrier[SLOT] = headers
  return true
}

/** The headers the limiter gave for this request (empty if none). */
export const taken = (source: object): Readonly<Record<string, string>> => (source as Carrier)[SLOT] ?? AWAITED
