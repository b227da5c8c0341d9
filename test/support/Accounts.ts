/** Helpers the route tests share: JSON requests through the test host, and an account to use. */
import { expect } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

export const PASSWORD = "correct horse battery"

export const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

export const send = (method: string, path: string, body?: unknown, token?: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

export const post = (path: string, body: unknown, token?: string) => send("POST", path, body, token)

/** The newest message the dev outbox holds for an address or phone. */
export const lastMessage = (to: string) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const outbox = (yield* json(yield* host.fetch(`/api/v10/dev/outbox?to=${encodeURIComponent(to)}`))) as {
      messages: Array<{ code?: string; token?: string; link?: string; kind: string }>
    }
    return outbox.messages.at(-1)
  })

export interface Registered {
  readonly user_id: string
  readonly access_token: string
  readonly refresh_token: string
}

/** Registers by phone through the routes, reading the code from the dev outbox. */
export const register = (phone: string, username: string, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const started = (yield* json(yield* post("/api/v10/auth/register/phone", { phone, captcha_token: "dev" }))) as {
      verification_id: string
    }
    const done = yield* post("/api/v10/auth/register/verify", {
      verification_id: started.verification_id,
      code: (yield* lastMessage(phone))?.code,
      username,
      password: PASSWORD,
      date_of_birth: "1995-01-01",
      consent: true,
      ...extra
    })
    expect(done.status).toBe(201)
    return (yield* json(done)) as Registered
  })

export const login = (body: Record<string, unknown>) => post("/api/v10/auth/login", { captcha_token: "dev", ...body })
