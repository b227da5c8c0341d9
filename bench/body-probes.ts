/**
 * `./dev node bench/body-probes.ts`: the most expensive 1 MiB bodies we could think of, sent to
 * every route with a JSON body in the OpenAPI document, through the in-process test host (memory
 * repositories, rate limits off, a static token so authenticated routes reach their decoding).
 * Prints the slowest answers; each time is the whole request in-process, so it is server time: the
 * fastest of PROBES_REPS (3) runs, since on a shared machine a single run measures the neighbours.
 *
 * A measurement, not a test: the fuzzer (adapters/node-server/test/Fuzz.test.ts) sends the worst
 * of these and only asserts its usual bound. PROBES_TOP (20) sets how many rows are printed.
 */
import { Snowflake } from "@veche/platform"
import { Authenticator } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

const MiB = 1024 * 1024
const TOP = Number(process.env.PROBES_TOP ?? 20)
const REPS = Number(process.env.PROBES_REPS ?? 3)
const TOKEN = "probe-user-token"

/** As many copies of `item` (JSON text) as fit a 1 MiB array. */
const filled = (item: string, room = MiB - 64) =>
  `[${Array(Math.floor(room / (item.length + 1)))
    .fill(item)
    .join(",")}]`

/** Values that cost the most per byte: an array of each kind, deep nesting, many keys, one long string. */
const values = (room = MiB - 256): ReadonlyArray<readonly [string, string]> => [
  ["array of {}", filled("{}", room)],
  ["array of 0", filled("0", room)],
  ['array of ""', filled('""', room)],
  ["array of []", filled("[]", room)],
  ["array of snowflakes", filled('"1311000000000000081"', room)],
  ["array of {id,position}", filled('{"id":"1","position":1}', room)],
  ["nested 100k", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
  ["object 90k keys", `{${Array.from({ length: 90_000 }, (_, i) => `"k${i}":0`).join(",")}}`],
  ["long string", JSON.stringify("a".repeat(room))]
]

interface Operation {
  readonly method: string
  readonly path: string
  readonly fields: ReadonlyArray<string>
}

type JsonSchema = {
  readonly $ref?: string
  readonly properties?: Record<string, unknown>
  readonly anyOf?: Array<JsonSchema>
}

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>
  components?: { schemas?: Record<string, JsonSchema> }
}

const operations = (doc: Document): Array<Operation> => {
  const resolve = (schema: JsonSchema | undefined): JsonSchema | undefined =>
    schema?.$ref === undefined ? schema : resolve(doc.components?.schemas?.[schema.$ref.split("/").at(-1) ?? ""])
  const out: Array<Operation> = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema = resolve(op.requestBody?.content?.["application/json"]?.schema)
      if (schema === undefined) continue
      const props = schema.properties ?? schema.anyOf?.map(resolve).find((s) => s?.properties)?.properties ?? {}
      out.push({ method: method.toUpperCase(), path, fields: Object.keys(props) })
    }
  }
  return out
}

/** Path parameters: a plausible snowflake, so the route matches and decoding is reached. */
const concrete = (path: string) => path.replace(/^\/api\/v1/, "/api/v10").replace(/\{[^{}]+\}/g, "1311000000000000081")

const program = Effect.gen(function* () {
  const host = yield* TestHost.TestHost
  const doc = yield* Effect.promise(() =>
    host.fetchPromise("/api/v1/openapi.json").then((r) => r.json() as Promise<Document>)
  )
  const rows: Array<{ ms: number; status: number; code: unknown; what: string }> = []
  const timeOne = (method: string, path: string, body: string, what: string) =>
    Effect.gen(function* () {
      let ms = Number.POSITIVE_INFINITY
      let status = 0
      let text = ""
      for (let rep = 0; rep < REPS; rep++) {
        const started = performance.now()
        const response = yield* host.fetch(path, {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          ...(body === "" ? {} : { body })
        })
        text = yield* Effect.promise(() => response.text())
        ms = Math.min(ms, performance.now() - started)
        status = response.status
      }
      let code: unknown
      try {
        code = (JSON.parse(text) as { code?: unknown }).code
      } catch {
        code = text.slice(0, 40)
      }
      rows.push({ ms, status, code, what: `${method} ${path} ${what} (${body.length} B)` })
    })
  // warm up the schemas once
  yield* timeOne("GET", "/api/v10/version", "", "warm-up").pipe(Effect.ignore)
  for (const op of operations(doc)) {
    const path = concrete(op.path)
    for (const [label, value] of values()) {
      yield* timeOne(op.method, path, value, `body = ${label}`)
      for (const field of op.fields) {
        yield* timeOne(op.method, path, `{"${field}":${value}}`, `${field} = ${label}`)
      }
    }
  }
  rows.sort((a, b) => b.ms - a.ms)
  for (const row of rows.slice(0, TOP)) {
    console.log(`${row.ms.toFixed(1).padStart(8)} ms  ${row.status} ${String(row.code).padEnd(6)} ${row.what}`)
  }
  console.log(`${rows.length} requests; median ${rows[Math.floor(rows.length / 2)]?.ms.toFixed(1)} ms`)
})

const authenticator = Authenticator.Authenticator.layerStatic([
  {
    scheme: "Bearer",
    token: TOKEN,
    principal: { kind: "user", userId: Snowflake.Snowflake.make("1311000000000000081") }
  }
])

Effect.runPromise(program.pipe(Effect.provide(TestHost.layer({ rateLimits: { enabled: false }, authenticator }))))
