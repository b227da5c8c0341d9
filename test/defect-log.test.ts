/**
 * A defect (an SQL error, a bug) answers 500 `{code: 0}` and leaves an Error line with the request
 * id and the cause, never a secret of the request (issue 16, item 10).
 */
import { describe, expect, it } from "@effect/vitest"
import { type AccessLog, HttpEdge } from "@veche/rest"
import { Cause, Effect, Layer, Logger, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

/** What a failed SQL statement looks like once the repository turns it into a defect. */
class FakeSqlError extends Error {
  override readonly name = "SqlError"
}

class ProbeGroup extends HttpApiGroup.make("probe")
  .add(HttpApiEndpoint.get("broken", "/broken", { success: Schema.Struct({ ok: Schema.Boolean }) }))
  .add(HttpApiEndpoint.get("fine", "/fine", { success: Schema.Struct({ ok: Schema.Boolean }) })) {}
class ProbeApi extends HttpApi.make("probe").add(ProbeGroup) {}
const routes = HttpApiBuilder.layer(ProbeApi).pipe(
  Layer.provide(
    HttpApiBuilder.group(ProbeApi, "probe", (h) =>
      h
        .handle("broken", () => Effect.die(new FakeSqlError('relation "guilds" does not exist')))
        .handle("fine", () => Effect.succeed({ ok: true }))
    )
  ),
  Layer.provide(HttpServer.layerServices)
)

interface Logged {
  readonly level: string
  readonly message: string
  readonly cause: string
}

const serve = (accessLog: HttpEdge.Options["accessLog"]) => {
  const logged: Array<Logged> = []
  const capture = Logger.make(({ logLevel, message, cause }) => {
    logged.push({
      level: logLevel,
      message: (Array.isArray(message) ? message : [message]).map(String).join(" "),
      cause: Cause.pretty(cause)
    })
  })
  const { handler, dispose } = HttpRouter.toWebHandler(Layer.merge(routes, Logger.layer([capture])), {
    disableLogger: true,
    middleware: HttpEdge.middleware({ trustedProxies: [], accessLog })
  })
  return { handler, dispose, logged }
}

describe("Defects", () => {
  it("answer 500 code 0 and log the cause at Error with the request id, without the request's secrets", async () => {
    const entries: Array<AccessLog.Entry> = []
    const { handler, dispose, logged } = serve((entry) => entries.push(entry))
    try {
      const secret = "Bearer s3cr3t-access-token"
      const response = await handler(
        new Request("http://edge.test/broken?token=link-token-123", { headers: { authorization: secret } })
      )
      expect(response.status).toBe(500)
      expect(await response.json()).toEqual({ code: 0, message: "500: Internal Server Error" })
      const errors = logged.filter((line) => line.level === "Error")
      expect(errors).toHaveLength(1)
      const [error] = errors
      const [entry] = entries
      expect(entry?.status).toBe(500)
      expect(error?.message).toBe(`request ${entry?.requestId} failed: GET /broken?token=[redacted]`)
      expect(error?.cause).toContain('relation "guilds" does not exist')
      const everything = JSON.stringify(logged)
      expect(everything).not.toContain("s3cr3t-access-token")
      expect(everything).not.toContain("link-token-123")
      // an answer that is not a defect logs nothing
      expect((await handler(new Request("http://edge.test/fine"))).status).toBe(200)
      expect((await handler(new Request("http://edge.test/none"))).status).toBe(404)
      expect(logged.filter((line) => line.level === "Error")).toHaveLength(1)
    } finally {
      await dispose()
    }
  })

  it("are logged with the access log off too", async () => {
    const { handler, dispose, logged } = serve(false)
    try {
      expect((await handler(new Request("http://edge.test/broken"))).status).toBe(500)
      expect(logged.filter((line) => line.level === "Error").map((line) => line.message)).toEqual([
        expect.stringMatching(/^request [0-9a-f]{8}-[0-9a-z]+ failed: GET \/broken$/)
      ])
    } finally {
      await dispose()
    }
  })
})
