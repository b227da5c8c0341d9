// The staff panel's shell. It signs in (phone, password, then the two-factor code when the API asks
// for it: 401 60003 with mfa true), keeps the access token in sessionStorage only (it dies with the
// tab), asks the API whether the account is staff (a staff route answers 403 otherwise) and shows
// the sections. Every section calls the public API with the token; nothing here is private.
import { call, explain, showError } from "./api.js"
import * as Views from "./staff-views.js"

const TOKEN_KEY = "veche.staff.access_token"
const $ = (id) => document.getElementById(id)
const SECTIONS = ["login", "refused", "panel"]

const show = (name) => {
  $("loading").hidden = true
  for (const section of SECTIONS) $(section).hidden = section !== name
  $(`${name}-title`).focus()
}

let memoryToken = null
const session = {
  get: () => {
    try {
      return window.sessionStorage.getItem(TOKEN_KEY)
    } catch {
      return memoryToken
    }
  },
  set: (token) => {
    memoryToken = token
    try {
      window.sessionStorage.setItem(TOKEN_KEY, token)
    } catch {}
  },
  clear: () => {
    memoryToken = null
    try {
      window.sessionStorage.removeItem(TOKEN_KEY)
    } catch {}
  }
}
memoryToken = session.get()

// ---- signing in -------------------------------------------------------------------------------

const loginInputs = { login: $("login-name"), password: $("password"), code: $("code") }
const loginError = $("login-error")

/** The dev server's captcha takes any token; with a real provider the first attempt needs none. */
const captchaToken = () =>
  document.querySelector('meta[name="veche-captcha"]')?.getAttribute("content") === "dev" ? "dev" : undefined

const explainLogin = (result) => {
  const code = result.body?.code
  if (code === 50014)
    return { text: "The phone number or password is not right. Check them and try again.", fields: ["password"] }
  if (code === 60003)
    return {
      text: "Enter the two-factor code from your authenticator app and press Sign in again.",
      fields: ["code"]
    }
  if (code === 50035 && result.body?.errors?.captcha_token !== undefined)
    return {
      text: "There were many sign-in attempts from your network, so a captcha check is due, and this page cannot show one. Try again in a quarter of an hour.",
      fields: []
    }
  return explain(result, { login: "Phone number", password: "Password", code: "Two-factor code" })
}

const markInvalid = (names) => {
  for (const [name, input] of Object.entries(loginInputs)) {
    if (names.includes(name)) input.setAttribute("aria-invalid", "true")
    else input.removeAttribute("aria-invalid")
  }
  const first = names.map((name) => loginInputs[name]).find((input) => input !== undefined)
  ;(first ?? $("login-submit")).focus()
}

const signIn = async (event) => {
  event.preventDefault()
  const button = $("login-submit")
  if (button.disabled) return
  const login = loginInputs.login.value.trim()
  const password = loginInputs.password.value
  const code = loginInputs.code.value.replace(/\s/g, "")
  const needsCode = !$("code-field").hidden
  const missing = [
    ...(login === "" ? ["login"] : []),
    ...(password === "" ? ["password"] : []),
    ...(needsCode && code === "" ? ["code"] : [])
  ]
  if (missing.length > 0) {
    showError(loginError, "Fill in the marked fields.")
    return markInvalid(missing)
  }
  button.disabled = true
  showError(loginError, null)
  const captcha = captchaToken()
  const result = await call("POST", "/auth/login", {
    body: {
      login,
      password,
      ...(captcha === undefined ? {} : { captcha_token: captcha }),
      ...(needsCode ? { code } : {})
    }
  })
  button.disabled = false
  if (result.status === 200 && typeof result.body?.access_token === "string") {
    session.set(result.body.access_token)
    for (const input of Object.values(loginInputs)) input.value = ""
    $("code-field").hidden = true
    return open()
  }
  if (result.body?.code === 60003 && result.body?.mfa === true) $("code-field").hidden = false
  const problem = explainLogin(result) ?? { text: "Signing in did not work. Try again.", fields: [] }
  showError(loginError, problem.text)
  markInvalid(problem.fields)
}

const signOut = async () => {
  const token = session.get()
  session.clear()
  if (token !== null) await call("POST", "/auth/logout", { token })
  show("login")
}

// ---- the panel --------------------------------------------------------------------------------

/** The API with this tab's token; a lost session sends the person back to sign in. */
const api = async (method, path, body) => {
  const result = await call(method, path, { token: session.get(), ...(body === undefined ? {} : { body }) })
  if (result.status === 401) {
    session.clear()
    showError(loginError, "Your session has ended. Sign in again.")
    show("login")
  }
  return result
}

const panelError = $("panel-error")
const panelDone = $("panel-done")
const context = {
  api,
  /** Shows a refusal in words (null hides it). */
  fail: (result) => {
    panelDone.hidden = true
    showError(panelError, result === null ? null : (explain(result)?.text ?? "That did not work."))
  },
  done: (text) => {
    showError(panelError, null)
    panelDone.textContent = text
    panelDone.hidden = false
  }
}

const TABS = {
  stats: () => Views.stats(context),
  catalogue: () => Views.catalogue(context),
  users: () => {},
  audit: () => Views.audit(context, { reset: true })
}

const selectTab = (name) => {
  for (const button of document.querySelectorAll(".tab"))
    button.setAttribute("aria-pressed", String(button.dataset.tab === name))
  for (const tab of Object.keys(TABS)) $(`tab-${tab}`).hidden = tab !== name
  context.fail(null)
  panelDone.hidden = true
  return TABS[name]()
}

/** Opens the panel for staff; anybody else is told the account has no staff rights. */
const open = async () => {
  if (session.get() === null) return show("login")
  const probe = await api("GET", "/moderation/audit-log?limit=1")
  if (probe.status === 401) return
  if (probe.status === 403) return show("refused")
  if (probe.status !== 200) {
    showError(loginError, explain(probe)?.text ?? "The panel could not be opened.")
    return show("login")
  }
  const me = await api("GET", "/users/@me")
  $("who").textContent = me.body?.global_name ?? me.body?.username ?? ""
  show("panel")
  await selectTab("stats")
}

$("login-form").addEventListener("submit", signIn)
$("sign-out").addEventListener("click", signOut)
$("refused-out").addEventListener("click", signOut)
for (const button of document.querySelectorAll(".tab"))
  button.addEventListener("click", () => selectTab(button.dataset.tab))
Views.wire(context)
open()
