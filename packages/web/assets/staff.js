// The staff panel's shell. It signs in (sign-in.js: phone, password, then the two-factor code when
// the API asks for it; the token pair in sessionStorage only, so it dies with the tab; an expired
// access token is renewed on the way), asks the API whether the account is staff (a staff route
// answers 403 otherwise) and shows the sections. Every section calls the public API with the
// token; nothing here is private.
import { explain, showError } from "./api.js"
import { signInForm, tokenStore } from "./sign-in.js"
import * as Views from "./staff-views.js"

const $ = (id) => document.getElementById(id)
const SECTIONS = ["login", "refused", "panel"]

const show = (name) => {
  $("loading").hidden = true
  for (const section of SECTIONS) $(section).hidden = section !== name
  $(`${name}-title`).focus()
}

const session = tokenStore("veche.staff")
const login = signInForm({ store: session, loginWords: "phone number", onSignedIn: () => open() })

const signOut = async () => {
  await session.end()
  show("login")
}

// ---- the panel --------------------------------------------------------------------------------

/**
 * The API with this tab's session (renewed when its access token expires); a session that has
 * ended sends the person back to sign in.
 */
const api = async (method, path, body) => {
  const result = await session.call(method, path, body === undefined ? {} : { body })
  // (A 401 for a session already replaced by a new sign-in leaves the new one alone.)
  if (result.status === 401 && session.get() === null) {
    login.say("Your session has ended. Sign in again.")
    show("login")
  }
  return result
}

const panelError = $("panel-error")
const panelDone = $("panel-done")
const context = {
  api,
  /** Shows a refusal in words: an API answer explained, or the panel's own words (null hides it). */
  fail: (problem) => {
    panelDone.hidden = true
    const text =
      problem === null || typeof problem === "string" ? problem : (explain(problem)?.text ?? "That did not work.")
    showError(panelError, text)
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
    login.say(explain(probe)?.text ?? "The panel could not be opened.")
    return show("login")
  }
  const me = await api("GET", "/users/@me")
  $("who").textContent = me.body?.global_name ?? me.body?.username ?? ""
  show("panel")
  await selectTab("stats")
}

$("sign-out").addEventListener("click", signOut)
$("refused-out").addEventListener("click", signOut)
for (const button of document.querySelectorAll(".tab"))
  button.addEventListener("click", () => selectTab(button.dataset.tab))
Views.wire(context)
open()
