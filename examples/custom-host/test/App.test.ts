/**
 * The example host served on a random port and driven over real HTTP, as its integrator would: a
 * user registers by phone (the code read from the dev outbox) and reads their profile with the
 * session, the host's own bot token is accepted and any other refused.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import * as App from "../src/App.ts"

const BOT_TOKEN = "test.bot-token"

const json = (response: HttpClientResponse.HttpClientResponse) => Effect.map(response.json, (body) => body as never)

const post = (path: string, body: unknown) =>
  Effect.flatMap(Effect.service(HttpClient.HttpClient), (client) =>
    client.execute(HttpClientRequest.bodyJsonUnsafe(HttpClientRequest.post(path), body))
  )

const get = (path: string, authorization?: string) =>
  Effect.flatMap(Effect.service(HttpClient.HttpClient), (client) =>
    client.execute(
      authorization === undefined
        ? HttpClientRequest.get(path)
        : HttpClientRequest.setHeader(HttpClientRequest.get(path), "authorization", authorization)
    )
  )

layer(
  App.layer({ botToken: BOT_TOKEN, webUrl: "http://127.0.0.1" }).pipe(Layer.provideMerge(NodeHttpServer.layerTest)),
  // the host runs on the real clock, as the integrator's would (dates of birth, code lifetimes)
  { excludeTestServices: true }
)("examples/custom-host", (it) => {
  it.effect("registers a user by phone and serves their profile with the session", () =>
    Effect.gen(function* () {
      const phone = "+79260000031"
      const started = yield* post("/api/v10/auth/register/phone", { phone, captcha_token: "dev" })
      expect(started.status).toBe(200)
      const { verification_id } = (yield* json(started)) as { verification_id: string }
      const outbox = (yield* json(yield* get(`/api/v10/dev/outbox?to=${encodeURIComponent(phone)}`))) as {
        messages: ReadonlyArray<{ code?: string }>
      }
      const registered = yield* post("/api/v10/auth/register/verify", {
        verification_id,
        code: outbox.messages.at(-1)?.code,
        username: "integrator",
        password: "correct horse battery",
        date_of_birth: "1995-01-01",
        consent: true
      })
      expect(registered.status).toBe(201)
      const { access_token } = (yield* json(registered)) as { access_token: string }
      const me = yield* get("/api/v10/users/@me", `Bearer ${access_token}`)
      expect(me.status).toBe(200)
      expect(((yield* json(me)) as { username: string }).username).toBe("integrator")
    })
  )

  it.effect("answers its own bot token and refuses any other", () =>
    Effect.gen(function* () {
      const bot = yield* get("/api/v10/gateway/bot", `Bot ${BOT_TOKEN}`)
      expect(bot.status).toBe(200)
      expect(((yield* json(bot)) as { url: string }).url).toBe("ws://127.0.0.1/gateway")
      const stranger = yield* get("/api/v10/gateway/bot", "Bot someone.elses-token")
      expect(stranger.status).toBe(401)
    })
  )
})
