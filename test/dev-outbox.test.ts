/** GET /dev/outbox: what the dev adapters recorded, newest last; only on dev servers. */
import { describe, expect, layer } from "@effect/vitest"
import { DevOutbox } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const record = (draft: DevOutbox.Draft) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(Effect.flatMap(Effect.service(DevOutbox.DevOutbox), (outbox) => outbox.record(draft)))
  )

describe("GET /dev/outbox on a dev server", () => {
  layer(TestHost.layer())((it) => {
    it.effect("lists recorded messages newest last, all or for one recipient", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        yield* record({ to: "+79161234567", channel: "console", kind: "register", code: "123456", text: "Code 123456" })
        yield* host.adjustClock("1 second")
        yield* record({
          to: "ann@example.com",
          channel: "email",
          kind: "email_verify",
          link: "https://x/v",
          text: "Hi"
        })
        yield* host.adjustClock("1 second")
        yield* record({ to: "+79161234567", channel: "console", kind: "recover", code: "654321", text: "Code 654321" })

        const all = (yield* json(yield* host.fetch("/api/v10/dev/outbox"))) as { messages: Array<{ to: string }> }
        expect(all.messages.map((m) => m.to)).toEqual(["+79161234567", "ann@example.com", "+79161234567"])

        const response = yield* host.fetch(`/api/v10/dev/outbox?to=${encodeURIComponent("+79161234567")}`)
        expect(response.status).toBe(200)
        expect(yield* json(response)).toEqual({
          messages: [
            {
              to: "+79161234567",
              channel: "console",
              kind: "register",
              code: "123456",
              text: "Code 123456",
              at: new Date(TestHost.START_TIME).toISOString()
            },
            {
              to: "+79161234567",
              channel: "console",
              kind: "recover",
              code: "654321",
              text: "Code 654321",
              at: new Date(TestHost.START_TIME + 2_000).toISOString()
            }
          ]
        })
        expect(yield* json(yield* host.fetch("/api/v10/dev/outbox?to=nobody"))).toEqual({ messages: [] })
      })
    )
  })
})

describe("GET /dev/outbox elsewhere", () => {
  layer(TestHost.layer({ env: "prod" }))((it) => {
    it.effect("answers like an unknown route", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        yield* record({ to: "+79161234567", channel: "console", kind: "register", code: "123456", text: "x" })
        const response = yield* host.fetch("/api/v10/dev/outbox")
        expect(response.status).toBe(404)
        expect(yield* json(response)).toEqual({ code: 0, message: "404: Not Found" })
      })
    )
  })
})
