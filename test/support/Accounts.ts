/** Helpers the route tests share: JSON requests through the test host, and an account to use. */
import { expect } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

export const PASSWORD = "correct horse battery"

export const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

/**
 * A request as a client at `from` (the test host trusts `X-Forwarded-For` from its loopback proxy);
 * without it, the client is the proxy itself.
 */
export const send = (method: string, path: string, body?: unknown, token?: string, from?: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(from === undefined ? {} : { "x-forwarded-for": from })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

export const post = (path: string, body: unknown, token?: string, from?: string) =>
  send("POST", path, body, token, from)

let nextAddress = 0
/** A fresh client address (documentation range: no country), so per-address limits start empty. */
export const freshAddress = () => `198.51.${Math.floor(++nextAddress / 250) % 250}.${(nextAddress % 250) + 1}`

export interface Registered {
  readonly user_id: string
  readonly access_token: string
  readonly refresh_token: string
}

/** Registers by phone through the routes, reading the code from the dev outbox. */
export const register = (phone: string, username: string, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const from = freshAddress()
    const started = (yield* json(
      yield* post("/api/v10/auth/register/phone", { phone, captcha_token: "dev" }, undefined, from)
    )) as { verification_id: string }
    const done = yield* post("/api/v10/auth/register/verify", {
      verification_id: started.verification_id,
      code: (yield* messagesTo(phone)).at(-1)?.code,
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

/**
 * The answer has this status and says no cache may keep it (`Cache-Control: no-store`, and HTTP/1.0's
 * `Pragma: no-cache`), as every answer carrying credentials must (RFC 6749 §5.1 for OAuth's).
 */
export const expectNotKept = (response: { readonly status: number; readonly headers: Headers }, status: number) =>
  expect({
    status: response.status,
    cacheControl: response.headers.get("cache-control"),
    pragma: response.headers.get("pragma")
  }).toEqual({ status, cacheControl: "no-store", pragma: "no-cache" })

export interface OutboxMessage {
  readonly to: string
  readonly kind: string
  readonly channel: string
  readonly code?: string
  readonly token?: string
  readonly link?: string
  readonly text: string
}

/** What the dev outbox holds for `to` (asked from a fresh address, so polling meets no route limit). */
export const messagesTo = (to: string) =>
  Effect.gen(function* () {
    const response = yield* send(
      "GET",
      `/api/v10/dev/outbox?to=${encodeURIComponent(to)}`,
      undefined,
      undefined,
      freshAddress()
    )
    expect(response.status).toBe(200)
    return ((yield* json(response)) as { messages: Array<OutboxMessage> }).messages
  })

const realPause = Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 10)))

/**
 * The `count`-th message of this kind to `to`, waiting for it: some messages are queued by work
 * that runs after the answer (recovery looks the account up in the background). Gives up after
 * about two seconds of real time, answering undefined.
 */
export const awaitMessage = (to: string, kind: string, count = 1) =>
  Effect.gen(function* () {
    for (let i = 0; i < 200; i++) {
      const matching = (yield* messagesTo(to)).filter((message) => message.kind === kind)
      if (matching.length >= count) return matching[count - 1]
      yield* realPause
    }
    return undefined
  })
