// Signing in, shared by the pages that need a session (the OAuth consent page, the staff panel):
// phone (or e-mail) and password, then the two-factor code when the API asks for it (401 60003
// with mfa true), and the token pair kept for this tab only. Each page has the same form in its
// HTML (ids login-form, login-name, password, code-field, code, login-submit, login-error); this
// module reads and answers it. An access token lives an hour (SERVICE_ACCESS_TOKEN_TTL): the
// store's `call` renews it with the refresh token when the API says it has expired, so a session
// lasts as long as the server keeps it, not an hour.
import { call, explain, showError } from "./api.js"

/** The API's answers for a token it no longer takes: expired (40001) or not valid (50014). */
const tokenRefused = (result) => result.status === 401 && (result.body?.code === 40001 || result.body?.code === 50014)

const pairOf = (body) =>
  typeof body?.access_token === "string" && typeof body?.refresh_token === "string"
    ? { access: body.access_token, refresh: body.refresh_token }
    : null

/**
 * The token pair under `prefix` in sessionStorage (`<prefix>.access_token`, `.refresh_token`; it
 * dies with the tab), mirrored in memory so a browser that refuses storage (a private mode) still
 * keeps it for this page. `call` is the API with the session: on an expired token it refreshes
 * once and sends the request again.
 */
export const tokenStore = (prefix) => {
  const keys = { access: `${prefix}.access_token`, refresh: `${prefix}.refresh_token` }
  const read = (key) => {
    try {
      return window.sessionStorage.getItem(key)
    } catch {
      return null
    }
  }
  const write = (key, value) => {
    try {
      if (value === null) window.sessionStorage.removeItem(key)
      else window.sessionStorage.setItem(key, value)
    } catch {
      // Storage refused: the token lives in this page only.
    }
  }
  let pair = { access: read(keys.access), refresh: read(keys.refresh) }
  // Which session this is: a sign-in or sign-out starts another (a refresh keeps the same one), so a
  // call made for one session is never sent again as another person's.
  let generation = 0
  const keep = (next) => {
    pair = next
    write(keys.access, next.access)
    write(keys.refresh, next.refresh)
  }

  // The refresh token rotates on every use, and the API ends the whole session when a used one
  // comes again: so one refresh at a time, and every call that found its token expired waits for
  // that one instead of starting its own.
  let refreshing = null
  /** Answers "renewed", "ended" (the session is over: sign in again) or an answer that says neither. */
  const refresh = () => {
    refreshing ??= (async () => {
      const used = pair.refresh
      if (used === null) return "ended"
      const result = await call("POST", "/auth/refresh", { body: { refresh_token: used } })
      // Signed out or in again while the answer came: that session is not this one any more.
      if (pair.refresh !== used) return "ended"
      const renewed = result.status === 200 ? pairOf(result.body) : null
      if (renewed !== null) {
        keep(renewed)
        return "renewed"
      }
      // Unreachable, busy or failing: the token may still be good, so the session stays.
      if (result.status === 0 || result.status === 429 || result.status >= 500) return result
      keep({ access: null, refresh: null })
      return "ended"
    })().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  const store = {
    get: () => pair.access,
    /** Keeps the pair from a TokenPair answer (login); an answer without a refresh token keeps the access token alone. */
    set: (body) => {
      generation++
      keep({
        access: typeof body?.access_token === "string" ? body.access_token : null,
        refresh: typeof body?.refresh_token === "string" ? body.refresh_token : null
      })
    },
    clear: () => {
      generation++
      keep({ access: null, refresh: null })
    },
    /**
     * The API (as api.js `call`) with this session's token. When the API says the token has
     * expired, the pair is refreshed (once, whoever else is waiting) and the request sent again with
     * the new token; when the refresh is refused the session is cleared and the first 401 answered
     * (so a 401 with `get()` null means: sign in again).
     */
    call: async (method, path, options = {}) => {
      const sent = pair.access
      const made = generation
      const first = await call(method, path, { ...options, token: sent })
      if (!tokenRefused(first) || sent === null) return first
      // Another call may have renewed the pair while this one was on its way.
      if (pair.access === sent) {
        const outcome = await refresh()
        if (outcome !== "renewed" && outcome !== "ended") return outcome
      }
      if (generation !== made || pair.access === null) return first
      const again = await call(method, path, { ...options, token: pair.access })
      // Refused with a token just renewed: the session was ended meanwhile.
      if (tokenRefused(again) && generation === made) store.clear()
      return again
    },
    /**
     * Ends the session on the server too, not only in this tab. The tab forgets it at once (a new
     * sign-in may follow before the server has answered); an access token that has expired is
     * renewed first, so the server hears of the end.
     */
    end: async () => {
      const ending = pair
      store.clear()
      if (ending.access === null) return
      const out = await call("POST", "/auth/logout", { token: ending.access })
      // (A refresh of this pair still on its way makes the one below a reuse, which ends the
      // session on the server as well.)
      if (!tokenRefused(out) || ending.refresh === null) return
      const renewed = pairOf((await call("POST", "/auth/refresh", { body: { refresh_token: ending.refresh } })).body)
      if (renewed !== null) await call("POST", "/auth/logout", { token: renewed.access })
    }
  }
  return store
}

/** Marks the named inputs invalid (and only those) and focuses the first, or `fallback`. */
export const markInvalid = (inputs, names, fallback) => {
  for (const [name, input] of Object.entries(inputs)) {
    if (names.includes(name)) input.setAttribute("aria-invalid", "true")
    else input.removeAttribute("aria-invalid")
  }
  const first = names.map((name) => inputs[name]).find((input) => input !== undefined)
  ;(first ?? fallback).focus()
}

/**
 * Disables `button` and shows `text` on it while a request runs (so a second press sends nothing);
 * answers the function that restores it.
 */
export const busy = (button, text) => {
  const idle = button.textContent
  button.disabled = true
  button.textContent = text
  return () => {
    button.disabled = false
    button.textContent = idle
  }
}

/** The dev server's captcha takes any token; with a real provider the first attempt needs none. */
const captchaToken = () =>
  document.querySelector('meta[name="veche-captcha"]')?.getAttribute("content") === "dev" ? "dev" : undefined

/** The sign-in answers in words; `loginWords` is what the login field takes ("phone number"). */
const explainLogin = (result, loginWords, loginLabel) => {
  const code = result.body?.code
  if (code === 50014)
    return { text: `The ${loginWords} or password is not right. Check them and try again.`, fields: ["password"] }
  if (code === 60003)
    return {
      text: "This account uses two-factor authentication. Enter the two-factor code from your authenticator app and press Sign in again.",
      fields: ["code"]
    }
  if (code === 50035 && result.body?.errors?.captcha_token !== undefined)
    return {
      text: "There were many sign-in attempts from your network, so a captcha check is due, and this page cannot show one. Try again in a quarter of an hour.",
      fields: []
    }
  return explain(result, { login: loginLabel, password: "Password", code: "Two-factor code" })
}

/**
 * Answers the page's sign-in form: on success the token pair goes to `store` and `onSignedIn` runs.
 * `loginWords` names the login field in a sentence ("phone number, e-mail"). Answers `say(text)`,
 * which shows a message above the form (null hides it), e.g. that a session ended.
 */
export const signInForm = ({ store, loginWords, onSignedIn }) => {
  const $ = (id) => document.getElementById(id)
  const inputs = { login: $("login-name"), password: $("password"), code: $("code") }
  const error = $("login-error")
  const button = $("login-submit")
  const codeField = $("code-field")
  const loginLabel = document.querySelector('label[for="login-name"]')?.textContent ?? "Login"

  const submit = async (event) => {
    event.preventDefault()
    if (button.disabled) return
    const login = inputs.login.value.trim()
    const password = inputs.password.value
    const code = inputs.code.value.replace(/\s/g, "")
    const needsCode = !codeField.hidden
    const missing = [
      ...(login === "" ? ["login"] : []),
      ...(password === "" ? ["password"] : []),
      ...(needsCode && code === "" ? ["code"] : [])
    ]
    if (missing.length > 0) {
      showError(error, "Fill in the marked fields.")
      return markInvalid(inputs, missing, button)
    }
    const idle = busy(button, "Signing in…")
    showError(error, null)
    const captcha = captchaToken()
    const result = await call("POST", "/auth/login", {
      body: {
        login,
        password,
        ...(captcha === undefined ? {} : { captcha_token: captcha }),
        ...(needsCode ? { code } : {})
      }
    })
    idle()
    if (result.status === 200 && typeof result.body?.access_token === "string") {
      store.set(result.body)
      for (const input of Object.values(inputs)) {
        input.value = ""
        input.removeAttribute("aria-invalid")
      }
      codeField.hidden = true
      return onSignedIn()
    }
    if (result.body?.code === 60003 && result.body?.mfa === true) codeField.hidden = false
    const problem = explainLogin(result, loginWords, loginLabel) ?? {
      text: "Signing in did not work. Try again.",
      fields: []
    }
    showError(error, problem.text)
    markInvalid(inputs, problem.fields, button)
  }

  $("login-form").addEventListener("submit", submit)
  return { say: (text) => showError(error, text) }
}
