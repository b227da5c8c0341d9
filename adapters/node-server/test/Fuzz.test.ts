/**
 * A body, path and query fuzzer over every route of the OpenAPI document, against the reference
 * server on PostgreSQL (DATABASE_URL when set, else the embedded one), without a token and with a
 * valid user's token, and every route once with each of a list of junk credentials, all at once.
 * Whatever it sends, the server must answer within 5 s, never 5xx, and every
 * error must be JSON with an integer `code` (429: `{message, retry_after, global}`; the OAuth token
 * routes: RFC 6749's `{error, error_description}`).
 *
 * Each route gets: garbage in each path and query parameter (huge and negative ids, NUL, bad
 * escapes, long strings); whole bodies that are wrong (invalid JSON and UTF-8, deep nesting, 50 000
 * keys, a 1 MiB list of 340 000 objects, other content types); and, with a body of only its required
 * fields, each field in turn set to values of the wrong kind, NUL, huge strings, numbers past 2^31,
 * 2^63 and 2^64, 1e309, -0, floats, 100 000-element arrays, the 1 MiB list of objects in every list.
 * Routes taking a form body (the OAuth token routes) get each form field junk in turn (NUL, bad
 * escapes, 200 000 characters, twice) and wrong whole bodies. Raw sockets send what fetch cannot (NUL bytes in the path). The
 * e-mail fields get a ReDoS probe last, one at a time.
 *
 * Deterministic: the inputs come from the document and a seeded generator (FUZZ_SEED to vary it);
 * each route gets a bounded sample of them, so the run stays well under two minutes. To look
 * closer: FUZZ_DEBUG=<file> appends every answer's time, status and input; FUZZ_SERVER_LOG=<file>
 * keeps the server's output (the Error line of each 500 names its cause).
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiCaller, getJson, outboxCode, type Running, start, stopAll, tempDataDir } from "./ServerHarness.ts"

const SEED = Number(process.env.FUZZ_SEED ?? 16)
/** Body mutations sampled per route and caller (whole-body garbage is always sent in full). */
const FIELD_SAMPLES = 36
const CONCURRENCY = 4
const ANSWER_WITHIN_MS = 5_000

const dataDir = tempDataDir()
const databaseUrl = process.env.DATABASE_URL
const onPostgres = databaseUrl !== undefined && databaseUrl !== ""
const schema = `veche_fuzz_${process.pid}`

// ---------------------------------------------------------------------------------------------
// Inputs

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
const random = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A JSON value, or raw JSON text that JavaScript cannot hold (1e309, 2^64−1 as a number). */
type Value = { readonly json: unknown } | { readonly raw: string }

interface Mutation {
  readonly label: string
  readonly value: Value
}

const json = (label: string, value: unknown): Mutation => ({ label, value: { json: value } })
const raw = (text: string): Mutation => ({ label: text, value: { raw: text } })

const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`
/**
 * The costliest list a 1 MiB body holds: 340 000 objects. Before issue 16 every item of a capped
 * list was decoded before its length was checked: 3 s of CPU per request for 50035 "too long".
 */
const MANY_OBJECTS = `[${Array(340_000).fill("{}").join(",")}]`

/** What any one field may be given instead of what it expects. */
const FIELD_MUTATIONS: ReadonlyArray<Mutation> = [
  json("null", null),
  json("true", true),
  json("0", 0),
  json('""', ""),
  json("[]", []),
  json("{}", {}),
  json('"text"', "text"),
  json('"a\\u0000b"', "a\u0000b"),
  json('"\\u0000"', "\u0000"),
  json('"\\ud800" (lone surrogate)', "\ud800"),
  json('"x" × 200000', "x".repeat(200_000)),
  json('"é" × 100000', "é".repeat(100_000)),
  json('["a\\u0000"]', ["a\u0000"]),
  json('{"text": "\\u0000"}', { text: "\u0000" }),
  json('"18446744073709551615"', "18446744073709551615"),
  json('"9223372036854775808"', "9223372036854775808"),
  json('"-1"', "-1"),
  json('"1e3"', "1e3"),
  json('"0x10"', "0x10"),
  json('"2026-02-30"', "2026-02-30"),
  raw("9223372036854775808"),
  raw("18446744073709551615"),
  raw("3000000000"),
  raw("2147483648"),
  raw("-2147483649"),
  raw("1e309"),
  raw("-1e309"),
  raw("-0"),
  raw("1.5"),
  raw("-1"),
  raw("1e-7"),
  raw("123456789012345678901234567890"),
  raw("9007199254740993"),
  json("[0 × 100000]", Array(100_000).fill(0)),
  json('["1" × 20000]', Array(20_000).fill("1")),
  { label: "[{} × 340000] (1 MiB)", value: { raw: MANY_OBJECTS } },
  { label: "[[[…]]] 5000 deep", value: { raw: deepArray(5_000) } },
  { label: '{"a":{"a":…}} 5000 deep', value: { raw: deepObject(5_000) } }
]

const byLabel = (labels: ReadonlyArray<string>): ReadonlyArray<Mutation> =>
  labels.map((label) => FIELD_MUTATIONS.find((m) => m.label === label) ?? json(label, label))

/** Every field gets these; then those for the kind of value it holds; then a random sample of the rest. */
const FOR_EVERY_FIELD = byLabel(["null", "[]", "{}", '"a\\u0000b"', '"x" × 200000'])
const FOR_KIND: Record<string, ReadonlyArray<Mutation>> = {
  number: byLabel([
    '"text"',
    "true",
    "9223372036854775808",
    "18446744073709551615",
    "3000000000",
    "2147483648",
    "-2147483649",
    "1e309",
    "-1e309",
    "-0",
    "1.5",
    "-1",
    "1e-7",
    "123456789012345678901234567890"
  ]),
  string: byLabel([
    "0",
    "true",
    "1e309",
    '"\\u0000"',
    '"\\ud800" (lone surrogate)',
    '"é" × 100000',
    '"18446744073709551615"',
    '"9223372036854775808"',
    '"-1"',
    '"2026-02-30"'
  ]),
  array: byLabel([
    '"text"',
    "[0 × 100000]",
    '["1" × 20000]',
    "[{} × 340000] (1 MiB)",
    '["a\\u0000"]',
    "[[[…]]] 5000 deep"
  ]),
  object: byLabel(['"text"', '{"text": "\\u0000"}', '{"a":{"a":…}} 5000 deep']),
  boolean: byLabel(['"true"', "0", "1.5"])
}
const kindOf = (value: unknown): string => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value)

/** The e-mail pattern once backtracked quadratically (issue 16, item 1): an answer must still come in time. */
const EMAIL_REDOS = json('"a@" + "." × 50000 + "\\n@"', `a@${".".repeat(50_000)}\n@`)

interface Body {
  readonly label: string
  readonly bytes: string | Uint8Array
  readonly contentType?: string
}

const invalidUtf8 = (prefix: string, suffix: string) =>
  new Uint8Array([...Buffer.from(prefix), 0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, ...Buffer.from(suffix)])

/** Bodies that are wrong as a whole, sent to every route that takes one. */
const wholeBodies = (plausible: string): ReadonlyArray<Body> => [
  { label: "empty", bytes: "" },
  { label: "{", bytes: "{" },
  { label: "[]", bytes: "[]" },
  { label: "null", bytes: "null" },
  { label: '"text"', bytes: '"text"' },
  { label: "1e309", bytes: "1e309" },
  { label: "{}", bytes: "{}" },
  { label: "NUL", bytes: "\u0000" },
  { label: '{"unknown": 1}', bytes: '{"unknown": 1}' },
  { label: "duplicate keys", bytes: plausible.replace(/^\{/, '{"__proto__": {"x": 1}, ') },
  { label: "invalid UTF-8 in a string", bytes: invalidUtf8('{"name":"', '"}') },
  { label: "invalid UTF-8 bytes", bytes: new Uint8Array([0xff, 0xfe, 0xfd]) },
  { label: "byte-order mark + body", bytes: `\ufeff${plausible}` },
  { label: "[[[…]]] 100000 deep", bytes: deepArray(100_000) },
  { label: '{"a":…} 50000 deep', bytes: deepObject(50_000) },
  { label: "[{} × 340000] (1 MiB)", bytes: MANY_OBJECTS },
  { label: "50000 keys", bytes: `{${Array.from({ length: 50_000 }, (_, i) => `"k${i}":${i}`).join(",")}}` },
  { label: "plausible, text/plain", bytes: plausible, contentType: "text/plain" },
  { label: "plausible, form-urlencoded", bytes: "name=a%00b&x=1", contentType: "application/x-www-form-urlencoded" },
  { label: "multipart garbage", bytes: "--x\r\nnot a part\r\n--x--", contentType: "multipart/form-data; boundary=x" },
  { label: "plausible, utf-16 charset", bytes: plausible, contentType: "application/json; charset=utf-16" },
  { label: "plausible, no content type", bytes: plausible, contentType: "" }
]

const FORM = "application/x-www-form-urlencoded"

/**
 * Form bodies (the OAuth token routes): the required fields with plausible values, then each field
 * in turn given junk (NUL, bad escapes, invalid UTF-8, 200 000 characters, twice), and bodies that
 * are wrong as a whole.
 */
const formBodies = (doc: Document, given: JsonSchema): ReadonlyArray<Body> => {
  const schema = resolve(doc, given)
  const fields = Object.keys(schema.properties ?? {})
  const required = new Set(schema.required ?? [])
  const base = fields.filter((field) => required.has(field)).map((field) => `${field}=fuzz`)
  const junk = [
    "%00",
    "a%00b",
    "%FF%FE",
    "%E0%A4%A",
    "%",
    "x".repeat(200_000),
    "%C3%A9".repeat(20_000),
    "",
    "authorization_code",
    "refresh_token",
    "voc_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "18446744073709551615"
  ]
  const bodies: Array<Body> = [
    { label: "plausible", bytes: base.join("&"), contentType: FORM },
    { label: "empty", bytes: "", contentType: FORM },
    { label: "plausible, JSON", bytes: JSON.stringify({ grant_type: "authorization_code" }) },
    { label: "plausible, text/plain", bytes: base.join("&"), contentType: "text/plain" },
    { label: "plausible, no content type", bytes: base.join("&"), contentType: "" },
    { label: "invalid UTF-8 bytes", bytes: invalidUtf8("grant_type=", "&code=x"), contentType: FORM },
    { label: "NUL in a key", bytes: `${base.join("&")}&a%00=1`, contentType: FORM },
    { label: "50000 keys", bytes: Array.from({ length: 50_000 }, (_, i) => `k${i}=${i}`).join("&"), contentType: FORM },
    { label: "1 MiB of one value", bytes: `grant_type=${"a".repeat(1_000_000)}`, contentType: FORM }
  ]
  for (const field of fields) {
    const others = base.filter((pair) => !pair.startsWith(`${field}=`))
    for (const value of junk) {
      const label = `${field} = ${value.length > 40 ? `"${value.slice(0, 6)}…" × ${value.length}` : JSON.stringify(value)}`
      bodies.push({ label, bytes: [...others, `${field}=${value}`].join("&"), contentType: FORM })
    }
    bodies.push({ label: `${field} twice`, bytes: [...base, `${field}=again`].join("&"), contentType: FORM })
  }
  return bodies
}

/** Path parameters: each is replaced in turn while the others keep a real value. */
const PATH_GARBAGE: ReadonlyArray<string> = [
  "0",
  "-1",
  "abc",
  "1.5",
  "1e3",
  "18446744073709551615",
  "9223372036854775808",
  "9223372036854775807",
  "99999999999999999999999999",
  "%00",
  "a%00b",
  "%FF%FE",
  "%E0%A4%A",
  "%2F",
  "%F0%9F%92%A9",
  "%20",
  "null",
  "@me",
  "x".repeat(3_000)
]

const QUERY_GARBAGE: ReadonlyArray<string> = [
  "",
  "-1",
  "0",
  "abc",
  "maybe",
  "1.5",
  "18446744073709551615",
  "9223372036854775808",
  "99999999999999999999999",
  "%00",
  "%FF",
  "x".repeat(3_000)
]

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

interface JsonSchema {
  readonly $ref?: string
  readonly type?: string
  readonly properties?: Record<string, JsonSchema>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly enum?: ReadonlyArray<unknown>
  readonly minLength?: number
  readonly minimum?: number
}

interface Operation {
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly security?: ReadonlyArray<unknown>
  readonly requestBody?: { readonly content: Record<string, { readonly schema: JsonSchema }> }
  readonly responses?: Record<string, unknown>
}

/**
 * The 5xx answers a route documents as its own (501 when payments are off, 502 when a provider
 * fails): those are answers, not defects. Filled by `buildCases`, by route.
 */
const DOCUMENTED_5XX = new Map<string, ReadonlySet<number>>()

interface Document {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, JsonSchema> }
}

const resolve = (doc: Document, schema: JsonSchema): JsonSchema =>
  schema.$ref === undefined ? schema : resolve(doc, doc.components.schemas[schema.$ref.split("/").at(-1) ?? ""] ?? {})

/** Strings the API takes by field name (a string of the right shape gets a mutation judged alone). */
const KNOWN_STRINGS: Record<string, string> = {
  password: "correct horse battery",
  new_password: "another horse battery",
  phone: "+79051112233",
  email: "fuzz@example.com",
  login: "+79051112233",
  date_of_birth: "1990-05-05",
  captcha_token: "dev",
  username: "fuzz_someone",
  code: "123456",
  status: "online"
}

/**
 * A value the schema would likely accept, so that one wrong field is judged on its own: required
 * fields always, optional ones only when `all` (the paths to mutate come from that fuller value).
 */
const plausible = (
  doc: Document,
  given: JsonSchema,
  ids: Record<string, string>,
  all: boolean,
  name = "",
  depth = 0
): unknown => {
  const schema = resolve(doc, given)
  if (schema.enum !== undefined) return schema.enum[0]
  if (schema.anyOf !== undefined) {
    const option = schema.anyOf.find((s) => resolve(doc, s).type !== "null") ?? schema.anyOf[0]
    return option === undefined ? null : plausible(doc, option, ids, all, name, depth)
  }
  switch (schema.type) {
    case "string":
      return ids[name] ?? (name === "id" || name.endsWith("_id") ? ids.id : undefined) ?? KNOWN_STRINGS[name] ?? "fuzz"
    case "integer":
    case "number":
      return schema.minimum !== undefined && schema.minimum > 0 ? schema.minimum : 0
    case "boolean":
      return true
    case "array":
      return depth > 3 || schema.items === undefined ? [] : [plausible(doc, schema.items, ids, all, name, depth + 1)]
    case "object": {
      if (depth > 3) return {}
      const required = new Set(schema.required ?? [])
      return Object.fromEntries(
        Object.entries(schema.properties ?? {})
          .filter(([field]) => all || required.has(field))
          .map(([field, fieldSchema]) => [field, plausible(doc, fieldSchema, ids, all, field, depth + 1)])
      )
    }
    default:
      return null
  }
}

/** Paths into a value at which to put a mutation: each field, one level into objects and arrays. */
const fieldPaths = (value: unknown, prefix: ReadonlyArray<string | number> = []): Array<Array<string | number>> => {
  if (Array.isArray(value)) {
    return value.length === 0
      ? []
      : [[...prefix, 0], ...(prefix.length < 2 ? fieldPaths(value[0], [...prefix, 0]) : [])]
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([name, field]) => [
      [...prefix, name],
      ...(prefix.length < 2 ? fieldPaths(field, [...prefix, name]) : [])
    ])
  }
  return []
}

const RAW = "\u0001raw\u0001"

type Node = Record<string | number, unknown>

/**
 * The body text: `base` (required fields) with `mutation` at `path`, the optional fields on the way
 * there taken from `full`; raw JSON text is spliced in where JSON cannot hold the value.
 */
const mutate = (base: unknown, full: unknown, path: ReadonlyArray<string | number>, mutation: Mutation): string => {
  const last = path.at(-1)
  if (last === undefined) return "json" in mutation.value ? JSON.stringify(mutation.value.json) : mutation.value.raw
  const copy: unknown = structuredClone(base)
  let node = copy as Node
  let source = full as Node | undefined
  for (const key of path.slice(0, -1)) {
    if (node[key] === undefined || node[key] === null) node[key] = structuredClone(source?.[key])
    node = node[key] as Node
    source = source?.[key] as Node | undefined
  }
  node[last] = "json" in mutation.value ? mutation.value.json : RAW
  const text = JSON.stringify(copy)
  return "raw" in mutation.value ? text.replace(JSON.stringify(RAW), mutation.value.raw) : text
}

// ---------------------------------------------------------------------------------------------
// Cases and answers

interface Case {
  readonly route: string
  readonly method: string
  readonly path: string
  readonly input: string
  readonly body?: Body
  readonly token: boolean
}

interface Failure {
  readonly route: string
  readonly token: boolean
  readonly input: string
  readonly status: number | string
  readonly body: string
  readonly why: string
}

interface Fixture {
  readonly token: string
  /** A real value for each path parameter name (the user's own guild, channel, invite...). */
  readonly params: Record<string, string>
}

/**
 * Every case, in order, and the e-mail ReDoS probes apart: those may block the event loop, and run
 * one at a time after the rest so that a slow one names itself rather than the requests beside it.
 */
const buildCases = (doc: Document, fixture: Fixture): { cases: ReadonlyArray<Case>; redos: ReadonlyArray<Case> } => {
  const next = random(SEED)
  const cases: Array<Case> = []
  const redos: Array<Case> = []
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [lower, operation] of Object.entries(operations)) {
      const method = lower.toUpperCase()
      if (!["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method)) continue
      const route = `${method} ${template}`
      DOCUMENTED_5XX.set(
        route,
        new Set(
          Object.keys(operation.responses ?? {})
            .map(Number)
            .filter((status) => status >= 500)
        )
      )
      const secured = (operation.security ?? []).length > 0
      const pathParams = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name)
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name)
      const fill = (override: Record<string, string> = {}) =>
        template.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? fixture.params[name] ?? "1")
      const bodySchema = operation.requestBody?.content["application/json"]?.schema
      const formSchema = operation.requestBody?.content["application/x-www-form-urlencoded"]?.schema
      // ids in bodies: the user's own objects (a channel for channel routes, else the guild or the user)
      const ids = {
        ...fixture.params,
        id: template.includes("channel") ? (fixture.params.channel_id ?? "1") : (fixture.params.guild_id ?? "1"),
        parent_id: fixture.params.channel_id ?? "1"
      }
      const full = bodySchema === undefined ? undefined : plausible(doc, bodySchema, ids, true)
      const base = bodySchema === undefined ? undefined : plausible(doc, bodySchema, ids, false)
      const baseText = base === undefined ? undefined : JSON.stringify(base)
      const plain = baseText === undefined ? undefined : { label: "plausible", bytes: baseText }
      for (const token of [false, true]) {
        const add = (path: string, input: string, body?: Body) =>
          cases.push({ route, method, path, input, token, ...(body === undefined ? {} : { body }) })
        for (const name of pathParams) {
          for (const garbage of PATH_GARBAGE) {
            add(
              fill({ [name]: garbage }),
              `path ${name} = ${garbage.length > 40 ? `"x" × ${garbage.length}` : garbage}`,
              plain
            )
          }
        }
        for (const name of queryParams) {
          for (const garbage of QUERY_GARBAGE) {
            add(
              `${fill()}?${name}=${garbage}`,
              `query ${name} = ${garbage.length > 40 ? `"x" × ${garbage.length}` : garbage}`,
              plain
            )
          }
        }
        add(
          `${fill()}?zzz=%00&limit=%FF&${"q".repeat(100)}=${"v".repeat(4_000)}`,
          "query: unknown and long keys",
          plain
        )
        if (formSchema !== undefined) {
          for (const body of formBodies(doc, formSchema)) add(fill(), `form body = ${body.label}`, body)
          continue
        }
        if (base === undefined || baseText === undefined) {
          // routes without a body still get one, and must ignore or refuse it
          add(fill(), "unexpected JSON body", { label: "unexpected", bytes: '{"a": "\\u0000"}' })
          continue
        }
        // Without a token a route that needs one refuses before it reads the body: whole-body
        // garbage is enough there. Routes open to all get their fields fuzzed by both callers.
        add(fill(), "plausible body", plain)
        for (const body of wholeBodies(baseText)) add(fill(), `body = ${body.label}`, body)
        if (secured && !token) continue
        const addField = (path: ReadonlyArray<string | number>, mutation: Mutation) =>
          add(
            fill(),
            `body${path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("")} = ${mutation.label}`,
            {
              label: mutation.label,
              bytes: mutate(base, full, path, mutation)
            }
          )
        const paths = fieldPaths(full)
        const rest: Array<{ path: ReadonlyArray<string | number>; mutation: Mutation }> = []
        for (const path of paths) {
          const kind = kindOf(
            path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], full)
          )
          const chosen = [...FOR_EVERY_FIELD, ...(FOR_KIND[kind] ?? [])]
          for (const mutation of chosen) addField(path, mutation)
          for (const mutation of FIELD_MUTATIONS) if (!chosen.includes(mutation)) rest.push({ path, mutation })
        }
        for (let i = 0; i < FIELD_SAMPLES && rest.length > 0; i++) {
          const [picked] = rest.splice(Math.floor(next() * rest.length), 1)
          if (picked !== undefined) addField(picked.path, picked.mutation)
        }
        if (token === secured) {
          for (const path of paths.filter((p) => /email|login/.test(String(p.at(-1))))) {
            redos.push({
              route,
              method,
              path: fill(),
              input: `body.${path.join(".")} = ${EMAIL_REDOS.label}`,
              token,
              body: { label: "redos", bytes: mutate(base, full, path, EMAIL_REDOS) }
            })
          }
        }
      }
    }
  }
  // Routes that end the session or delete what other cases use go last.
  const destructive = (c: Case) => (c.method === "DELETE" || /logout|\/delete$/.test(c.route) ? 1 : 0)
  return { cases: cases.sort((a, b) => destructive(a) - destructive(b)), redos }
}

/** The OAuth token routes answer RFC 6749's `{error, error_description}` instead of the API's shape. */
const isOAuthTokenRoute = (path: string): boolean => /\/oauth2\/token(\/revoke)?(\?|$)/.test(path)

const isErrorShape = (status: number, body: unknown, path = ""): boolean => {
  if (body === null || typeof body !== "object") return false
  const record = body as Record<string, unknown>
  if (isOAuthTokenRoute(path) && status !== 429) {
    return typeof record.error === "string" && typeof record.error_description === "string"
  }
  if (status === 429) {
    return (
      typeof record.message === "string" && typeof record.retry_after === "number" && typeof record.global === "boolean"
    )
  }
  return typeof record.code === "number" && Number.isInteger(record.code)
}

const shorten = (text: string, max = 200) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text

/** `c.token` sends `authorization` (the user's `Bearer <token>`, or a junk credential). */
const judge = async (base: string, c: Case, authorization: string): Promise<Failure | undefined> => {
  const headers: Record<string, string> = {}
  if (c.token) headers.authorization = authorization
  if (c.body !== undefined && c.body.contentType !== "")
    headers["content-type"] = c.body.contentType ?? "application/json"
  const started = Date.now()
  const fail = (status: number | string, body: string, why: string): Failure => ({
    route: c.route,
    token: c.token,
    input: c.input,
    status,
    body: shorten(body),
    why
  })
  try {
    const response = await fetch(`${base}${c.path}`, {
      method: c.method,
      headers,
      ...(c.body === undefined || c.method === "GET" ? {} : { body: c.body.bytes }),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 1_000)
    })
    const text = await response.text()
    const tookMs = Date.now() - started
    if (process.env.FUZZ_DEBUG !== undefined) {
      fs.appendFileSync(process.env.FUZZ_DEBUG, `${tookMs} ms ${response.status} ${c.route} [${c.token}] ${c.input}\n`)
    }
    if (tookMs > ANSWER_WITHIN_MS) return fail(response.status, text, `answered after ${tookMs} ms`)
    if (response.status >= 500 && DOCUMENTED_5XX.get(c.route)?.has(response.status) !== true)
      return fail(response.status, text, "5xx")
    if (response.status < 400) return undefined
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return fail(response.status, text, "error body is not JSON")
    }
    return isErrorShape(response.status, body, c.path)
      ? undefined
      : fail(response.status, text, "error body without an integer code (or RFC 6749's shape on the token routes)")
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    if (process.env.FUZZ_DEBUG !== undefined) {
      fs.appendFileSync(process.env.FUZZ_DEBUG, `${Date.now() - started} ms none ${c.route} [${c.token}] ${c.input}\n`)
    }
    return fail(
      "no answer",
      `${String(error)} ${cause?.code ?? cause?.message ?? ""}`,
      `no answer (after ${Date.now() - started} ms)`
    )
  }
}

/** Credentials that are no one's: each route must refuse them (or ignore them) in the API's shape. */
const JUNK_CREDENTIALS = [
  "Bearer junk",
  "Bot junk",
  `Bot vbt_${"A".repeat(43)}`,
  `Bearer vat_${"A".repeat(43)}`,
  `Bearer vbt_${"A".repeat(43)}`,
  `Bearer voa_${"A".repeat(43)}`,
  `Bot ${"a".repeat(8_000)}`,
  "Basic Zm9vOmJhcg==",
  "Bearer"
]

/** Raw requests fetch cannot send: bytes a URL parser would refuse, handed to the socket as they are. */
const RAW_REQUESTS: ReadonlyArray<{ readonly input: string; readonly head: string }> = [
  {
    input: "raw NUL in the path",
    head: "GET /api/v10/guilds/1\u00002 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
  },
  { input: "raw UTF-8 in the path", head: "GET /api/v10/users/é HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" },
  {
    input: "a path of 12000 characters",
    head: `GET /api/v10/${"a".repeat(12_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`
  },
  {
    input: "a chunked body past 1 MiB",
    head: `POST /api/v10/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${"100000\r\n"}${"a".repeat(0x100000)}\r\n${"100000\r\n"}${"a".repeat(0x100000)}\r\n0\r\n\r\n`
  },
  {
    input: "a Content-Length that is not a number",
    head: "POST /api/v10/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1e3\r\nConnection: close\r\n\r\n{}"
  }
]

const rawExchange = (base: string, head: string): Promise<string> =>
  new Promise((done) => {
    const url = new URL(base)
    let received = ""
    const socket = net.connect({ host: url.hostname, port: Number(url.port) })
    const timer = setTimeout(() => socket.destroy(), ANSWER_WITHIN_MS)
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1")
    })
    socket.on("error", () => {})
    socket.on("close", () => {
      clearTimeout(timer)
      done(received)
    })
    socket.write(head, "latin1")
  })

// ---------------------------------------------------------------------------------------------

describe("fuzzing every route of the OpenAPI document", () => {
  let server: Running
  beforeAll(async () => {
    server = await start({
      ...(onPostgres
        ? { DATABASE_URL: databaseUrl ?? "", DATABASE_SCHEMA: schema }
        : { DATABASE_URL: "", SERVICE_DATA_DIR: dataDir }),
      SERVICE_RATE_LIMITS_ENABLED: "false",
      SERVICE_ACCESS_LOG: "false"
    })
  }, 60_000)
  afterAll(async () => {
    // FUZZ_SERVER_LOG=<file> keeps what the server wrote (its Error lines name each defect's cause).
    if (process.env.FUZZ_SERVER_LOG !== undefined) fs.writeFileSync(process.env.FUZZ_SERVER_LOG, server.output())
    await stopAll()
    fs.rmSync(dataDir, { recursive: true, force: true })
    if (onPostgres) {
      const drop = spawn("psql", [databaseUrl ?? "", "-qc", `DROP SCHEMA IF EXISTS "${schema}" CASCADE`])
      await new Promise((done) => drop.once("exit", done))
    }
  })

  it("answers everything within 5 s, never 5xx, errors as JSON with an integer code", async () => {
    const call = apiCaller(server.base)

    // A user (as the README shows: phone, code from the dev outbox), with a guild, a channel, an invite.
    const phone = `+7905${String(process.pid).padStart(7, "0").slice(-7)}`
    const password = "correct horse battery"
    const started = await call("POST", "/auth/register/phone", { phone, captcha_token: "dev" })
    const verificationId = (started.body as { verification_id: string }).verification_id
    const code = await outboxCode(server.base, phone, "register")
    const registered = await call("POST", "/auth/register/verify", {
      verification_id: verificationId,
      code,
      username: "fuzz_user",
      password,
      date_of_birth: "1990-05-05",
      consent: true
    })
    expect(registered.status).toBe(201)
    let token = (registered.body as { access_token: string }).access_token
    const userId = (registered.body as { user_id: string }).user_id
    const guild = (await call("POST", "/guilds", { name: "fuzz" }, token)).body as { id: string }
    const channel = (await call("POST", `/guilds/${guild.id}/channels`, { name: "fuzz" }, token)).body as { id: string }
    const invite = (await call("POST", `/channels/${channel.id}/invites`, {}, token)).body as { code: string }
    const fixture: Fixture = {
      token,
      params: {
        guild_id: guild.id,
        channel_id: channel.id,
        user_id: userId,
        role_id: guild.id,
        overwrite_id: userId,
        code: invite.code,
        verification_id: verificationId,
        export_id: "1",
        hash: "a".repeat(32)
      }
    }
    /** A case that ends the session (logout, revoke) must not blind the rest: log in again. */
    const ensureToken = async () => {
      try {
        if ((await call("GET", "/users/@me", undefined, token)).status === 200) return
        const login = await call("POST", "/auth/login", { login: phone, password, captcha_token: "dev" })
        if (login.status === 200) token = (login.body as { access_token: string }).access_token
      } catch (error) {
        // the cases themselves report a server that stopped answering
        console.log(`fuzzer: could not check the token: ${String(error)}`)
      }
    }

    const doc = (await getJson(`${server.base}/api/v1/openapi.json`)).body as Document
    const { cases, redos } = buildCases(doc, fixture)
    const failures: Array<Failure> = []
    const startedAt = Date.now()
    let nextCase = 0
    let lastRoute = ""
    const worker = async () => {
      for (;;) {
        const c = cases[nextCase++]
        if (c === undefined) return
        if (c.token && c.route !== lastRoute) {
          lastRoute = c.route
          await ensureToken()
        }
        const failure = await judge(
          server.base,
          { ...c, path: c.path.replace(/^\/api\/v1\//, "/api/v10/") },
          `Bearer ${token}`
        )
        if (failure !== undefined) failures.push(failure)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    // Junk credentials on every route (its first case: a plain request), all of them at once.
    const firstOfRoute = [...new Map(cases.filter((c) => !c.token).map((c) => [c.route, c])).values()]
    const junk = await Promise.all(
      firstOfRoute.flatMap((c) =>
        JUNK_CREDENTIALS.map((credential) =>
          judge(
            server.base,
            {
              ...c,
              token: true,
              input: `${c.input} + junk credential ${credential.slice(0, 20)}`,
              path: c.path.replace(/^\/api\/v1\//, "/api/v10/")
            },
            credential
          )
        )
      )
    )
    for (const failure of junk) if (failure !== undefined) failures.push(failure)
    for (const { input, head } of RAW_REQUESTS) {
      const received = await rawExchange(server.base, head)
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)
      const body = received.slice(received.indexOf("\r\n\r\n") + 4)
      let parsed: unknown
      try {
        parsed = JSON.parse(body)
      } catch {
        parsed = undefined
      }
      const why =
        status === 0
          ? "no answer (connection closed)"
          : status >= 500
            ? "5xx"
            : status >= 400 && !isErrorShape(status, parsed)
              ? "error body without an integer code"
              : undefined
      if (why !== undefined) {
        failures.push({ route: "raw socket", token: false, input, status: status || "none", body: shorten(body), why })
      }
    }
    // last: on a server with the quadratic e-mail pattern each of these holds the event loop for seconds
    for (const c of redos) {
      await ensureToken()
      const failure = await judge(
        server.base,
        { ...c, path: c.path.replace(/^\/api\/v1\//, "/api/v10/") },
        `Bearer ${token}`
      )
      if (failure !== undefined) failures.push(failure)
    }
    const tookMs = Date.now() - startedAt
    // Every 500 left an Error line naming its request (issue 16, item 10).
    const answered500 = failures.filter((f) => f.status === 500).length
    const errorLines = server.output().match(/ERROR \(#\d+\): request [0-9a-f]{8}-[0-9a-z]+ failed: /g)?.length ?? 0
    if (errorLines < answered500) {
      failures.push({
        route: "server log",
        token: false,
        input: "",
        status: "-",
        body: "",
        why: `${answered500} answers 500 but only ${errorLines} Error lines`
      })
    }

    // One line per failure, grouped by route, so a run names what broke at a glance.
    const report = failures
      .map((f) => `${f.route} [${f.token ? "token" : "no token"}] ${f.input} → ${f.status} ${f.body} (${f.why})`)
      .join("\n")
    console.log(
      `fuzzer: ${cases.length + junk.length + redos.length + RAW_REQUESTS.length} requests over ${new Set(cases.map((c) => c.route)).size} routes in ${tookMs} ms (seed ${SEED}), ${failures.length} failures`
    )
    expect(failures.length, `\n${report}\n`).toBe(0)
  }, 240_000)
})
