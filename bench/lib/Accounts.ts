/**
 * The accounts the auth scenarios log in with, made the way people make them: through the HTTP API
 * of a dev server (the code is read back from its dev outbox, GET /dev/outbox). Every request after
 * the first from an address needs a captcha; the dev captcha accepts any non-empty token.
 *
 * One account per connection, each from an address of its own (`X-Forwarded-For`, believed from
 * the loopback proxy by default), as N people logging in would be. Not one account from one
 * address N times over: login counts every attempt in flight against the failed-login limits before
 * it judges the password (so parallel wrong guesses cannot pass the cap), which refuses an eleventh
 * concurrent attempt on one account from one address with 429 whatever its password.
 */

export const PASSWORD = "bench-password-1"
export const CAPTCHA = "bench"

/** The phone of account `index` (Russian mobile numbers, distinct up to a million accounts). */
export const phoneOf = (index: number): string =>
  `+7999${String(1_000_000 + index)
    .slice(1)
    .padStart(7, "0")}`
/** The address account `index` logs in from (TEST-NET-2 and -3, 508 addresses, then repeating). */
export const addressOf = (index: number): string =>
  `${index % 2 === 0 ? "198.51.100" : "203.0.113"}.${1 + (Math.floor(index / 2) % 254)}`

/** What every successful login, registration and refresh answers. */
export interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
  readonly user_id: string
}

/**
 * Where the accounts' requests go: a server's base URL (through `fetch`), or a function that answers
 * a route under `/api/v10` in process (a test host's `fetchPromise`).
 */
export type Api = string | ((route: string, init: RequestInit) => Promise<Response>)

const call = async <A>(
  api: Api,
  method: "GET" | "POST",
  route: string,
  body?: unknown,
  address?: string
): Promise<A> => {
  const init: RequestInit = {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(address === undefined ? {} : { "x-forwarded-for": address })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }
  const response = await (typeof api === "string" ? fetch(`${api}/api/v10${route}`, init) : api(route, init))
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`)
  return JSON.parse(text) as A
}

/**
 * The code last sent to `phone`, from the dev outbox. Codes go out through the delivery queue's
 * worker, which may not have run yet on a busy machine: asked again for up to 30 s.
 */
const codeFor = async (base: Api, phone: string): Promise<string> => {
  const deadline = Date.now() + 30_000
  for (;;) {
    const outbox = await call<{ messages: ReadonlyArray<{ code?: string }> }>(
      base,
      "GET",
      `/dev/outbox?to=${encodeURIComponent(phone)}`
    )
    const code = outbox.messages.at(-1)?.code
    if (code !== undefined) return code
    if (Date.now() > deadline) throw new Error(`the dev outbox holds no code for ${phone} after 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Registers account `index` on `base`, a dev server with route limits off, from its own address. */
export const register = async (base: Api, index: number): Promise<TokenPair> => {
  const phone = phoneOf(index)
  const address = addressOf(index)
  const started = await call<{ verification_id: string }>(
    base,
    "POST",
    "/auth/register/phone",
    { phone, captcha_token: CAPTCHA },
    address
  )
  const code = await codeFor(base, phone)
  return call<TokenPair>(
    base,
    "POST",
    "/auth/register/verify",
    {
      verification_id: started.verification_id,
      code,
      username: `bench_user_${index}`,
      password: PASSWORD,
      date_of_birth: "2000-01-01",
      consent: true
    },
    address
  )
}

/** Registers accounts 0 … count − 1, a few at a time (each registration hashes a password). */
export const registerMany = async (base: string, count: number): Promise<void> => {
  for (let first = 0; first < count; first += 4) {
    const batch = Array.from({ length: Math.min(4, count - first) }, (_, offset) => first + offset)
    await Promise.all(batch.map((index) => register(base, index)))
  }
}

/** The login request of account `index`. */
export const loginBody = (index: number) => ({ login: phoneOf(index), password: PASSWORD, captcha_token: CAPTCHA })

/** Connection `index` of the login scenario: account `index`, from its address. */
export const loginConnection = (index: number) => ({
  headers: { "x-forwarded-for": addressOf(index) },
  json: loginBody(index)
})

export const login = (base: string, index = 0): Promise<TokenPair> =>
  call<TokenPair>(base, "POST", "/auth/login", loginBody(index), addressOf(index))
