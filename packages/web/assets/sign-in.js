// Signing in, shared by the pages that need a session (the OAuth consent page, the staff panel):
// phone (or e-mail) and password, then the two-factor code when the API asks for it (401 60003
// with mfa true), and the access token kept for this tab only. Each page has the same form in its
// HTML (ids login-form, login-name, password, code-field, code, login-submit, login-error); this
// module reads and answers it. No refresh token is kept: a session that ends signs in again.
import { call, explain, showError } from "./api.js"

/**
 * The access token under `key` in sessionStorage (it dies with the tab), mirrored in memory so a
 * browser that refuses storage (a private mode) still keeps it for this page.
 */
export const tokenStore = (key) => {
  let token = null
  try {
    token = window.sessionStorage.getItem(key)
  } catch {
    token = null
  }
  const store = {
    get: () => token,
    set: (value) => {
      token = value
      try {
        window.sessionStorage.setItem(key, value)
      } catch {
        // Storage refused: the token lives in this page only.
      }
    },
    clear: () => {
      token = null
      try {
        window.sessionStorage.removeItem(key)
      } catch {}
    },
    /** Ends the session on the server too, not only in this tab. */
    end: async () => {
      const ending = token
      store.clear()
      if (ending !== null) await call("POST", "/auth/logout", { token: ending })
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
 * Answers the page's sign-in form: on success the token goes to `store` and `onSignedIn` runs.
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
      store.set(result.body.access_token)
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
