/**
 * One rule for every string of every request: no U+0000. PostgreSQL cannot store it in `text` or
 * `jsonb`, so a NUL that a schema let through failed the query and answered 500. Checked here, before
 * any schema or handler runs, it holds for every route, present and future: path parameters, query
 * parameters and the JSON body (string values and keys, at any depth). The 50035 tree names each
 * field that carries one (its parent, for a key).
 */
import { FormCode, FormErrors } from "@veche/errors"
import { Effect } from "effect"
import { HttpMethod, HttpRouter, HttpServerRequest } from "effect/http"

const NUL = "\u0000"
/**
 * JSON can spell U+0000 only as this escape (a raw control character is not JSON at all), so a body
 * without these six characters holds no NUL and is not parsed a second time.
 */
const ESCAPED_NUL = "\\u0000"

const MESSAGE = "Must not contain NUL characters."

type Path = ReadonlyArray<PropertyKey>

/**
 * The paths of the strings (and the objects with keys) holding a NUL in a decoded JSON value. With
 * its own stack, not recursion: a deeply nested body must not overflow the call stack.
 */
export const pathsIn = (root: unknown): ReadonlyArray<Path> => {
  const found: Array<Path> = []
  const pending: Array<{ readonly value: unknown; readonly path: Path }> = [{ value: root, path: [] }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next
    if (typeof value === "string") {
      if (value.includes(NUL)) found.push(path)
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push({ value: value[i], path: [...path, i] })
    } else if (typeof value === "object" && value !== null) {
      const entries = Object.entries(value)
      if (entries.some(([key]) => key.includes(NUL))) found.push(path)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown]
        if (!key.includes(NUL)) pending.push({ value: item, path: [...path, key] })
      }
    }
  }
  return found
}

const isJson = (request: HttpServerRequest.HttpServerRequest): boolean => {
  // HttpApi reads a body without a content type as JSON.
  const type = request.headers["content-type"]
  return type === undefined || type.toLowerCase().includes("json")
}

/**
 * Whether the request can hold a NUL at all, without parsing anything: path and query values are
 * decoded from the URL, where a NUL is spelt `%00` (or, once the edge has decoded the path, is the
 * character itself), and a JSON body is looked at only where `inRequest` would read it. Most
 * requests answer no here and skip `inRequest`'s walk over params and query.
 */
export const mayHold = (request: HttpServerRequest.HttpServerRequest, withBody: boolean): boolean =>
  request.url.includes("%00") ||
  request.url.includes(NUL) ||
  (withBody && HttpMethod.hasBody(request.method) && isJson(request))

/**
 * The fields of the current request that hold a NUL, as a 50035 tree (empty when none). `withBody`:
 * whether the route reads a body; the body is read here only when it does, and a body that cannot
 * be read or parsed is left to the route's own decoding (413, 50109) to answer.
 */
export const inRequest = (
  withBody: boolean
): Effect.Effect<
  FormErrors.Tree,
  never,
  HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams | HttpRouter.RouteContext
> =>
  Effect.gen(function* () {
    const found: Array<Path> = []
    const params = yield* HttpRouter.params
    for (const [name, value] of Object.entries(params)) if (value?.includes(NUL)) found.push([name])
    const query = yield* HttpServerRequest.ParsedSearchParams
    for (const [name, value] of Object.entries(query)) {
      const values = typeof value === "string" ? [value] : value
      values.forEach((item, i) => {
        if (item.includes(NUL)) found.push(typeof value === "string" ? [name] : [name, i])
      })
    }
    const request = yield* HttpServerRequest.HttpServerRequest
    if (withBody && HttpMethod.hasBody(request.method) && isJson(request)) {
      // The body is read once: HttpApi's decoder meets the same cached text (or the same failure).
      const text = yield* Effect.orElseSucceed(request.text, () => "")
      if (text.includes(ESCAPED_NUL)) {
        try {
          found.push(...pathsIn(JSON.parse(text)))
        } catch {
          // not JSON: the decoder answers 50109
        }
      }
    }
    return FormErrors.merge(...found.map((path) => FormErrors.field(path, FormCode.BaseTypeInvalid, MESSAGE)))
  })
