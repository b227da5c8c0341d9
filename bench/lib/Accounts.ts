/**
 * The account the auth scenarios log in with, made the way a person makes one: through the HTTP API
 * of a dev server (the code is read back from its dev outbox, GET /dev/outbox). Every request after
 * the first from an address needs a captcha; the dev captcha accepts any non-empty token.
 */

export const PHONE = "+79991234567"
export const PASSWORD = "bench-password-1"
export const CAPTCHA = "bench"

/** What every successful login, registration and refresh answers. */
export interface TokenPair {
  readonly access_token: string
  readonly refresh_token: string
}

const call = async <A>(base: string, method: "GET" | "POST", route: string, body?: unknown): Promise<A> => {
  const response = await fetch(`${base}/api/v10${route}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`)
  return JSON.parse(text) as A
}

/** Registers PHONE with PASSWORD on `base`, a dev server with route limits off. */
export const register = async (base: string): Promise<TokenPair> => {
  const started = await call<{ verification_id: string }>(base, "POST", "/auth/register/phone", {
    phone: PHONE,
    captcha_token: CAPTCHA
  })
  const outbox = await call<{ messages: ReadonlyArray<{ code?: string }> }>(
    base,
    "GET",
    `/dev/outbox?to=${encodeURIComponent(PHONE)}`
  )
  const code = outbox.messages.at(-1)?.code
  if (code === undefined) throw new Error(`the dev outbox holds no code for ${PHONE}`)
  return call<TokenPair>(base, "POST", "/auth/register/verify", {
    verification_id: started.verification_id,
    code,
    username: "bench_user",
    password: PASSWORD,
    date_of_birth: "2000-01-01",
    consent: true
  })
}

/** The login request of the login scenario, as sent on every connection. */
export const LOGIN_BODY = { login: PHONE, password: PASSWORD, captcha_token: CAPTCHA }

export const login = (base: string): Promise<TokenPair> => call<TokenPair>(base, "POST", "/auth/login", LOGIN_BODY)
