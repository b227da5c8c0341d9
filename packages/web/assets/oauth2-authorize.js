// The OAuth consent page. It signs the person in when this tab has no session yet (the token pair
// is kept in sessionStorage only: it dies with the tab; sign-in.js renews an expired one), asks the API what the address's request
// means (GET /oauth2/authorize with the page's own query), shows it, and sends the answer
// (POST /oauth2/authorize); the API answers where to go next. A request the API refuses (unknown
// application, unregistered redirect_uri…) is explained here and never sent anywhere.
import { apiBase, explain, fieldMessages, showError } from "./api.js"
import { canGrant, PERMISSIONS, parsePermissions } from "./permissions.js"
import { busy, markInvalid, signInForm, tokenStore } from "./sign-in.js"

const query = window.location.search
const asked = parsePermissions(new URLSearchParams(query).get("permissions"))
const $ = (id) => document.getElementById(id)

const SECTIONS = ["login", "consent", "failed", "sending"]

/** Shows one section (and its heading takes the focus, so a screen reader starts there). */
const show = (name, { focus = true } = {}) => {
  $("loading").hidden = true
  for (const section of SECTIONS) $(section).hidden = section !== name
  if (focus) $(`${name}-title`).focus()
}

const session = tokenStore("veche")
const login = signInForm({ store: session, loginWords: "phone number, e-mail", onSignedIn: () => load() })

// ---- what the application asks ----------------------------------------------------------------

/** Why the API refused the request in the address, in words; these never go back to the application. */
const explainRequest = (result) => {
  const { body } = result
  if (body?.code === 10002) return "No application has this client_id: the link that brought you here is wrong."
  // the one 403 the request itself gets: a private application's bot, asked for by someone else
  if (body?.code === 50013)
    return "This application's bot is private: only the application's owner can add it to a server."
  if (body?.code === 50035) {
    const errors = body.errors ?? {}
    if (errors.redirect_uri?._errors?.some((e) => e?.code === "INVALID_OAUTH_REDIRECT"))
      return "The address this link would send you back to (redirect_uri) is not one the application registered, so Veche will not send you there."
    const found = fieldMessages(errors, {
      client_id: "client_id",
      redirect_uri: "redirect_uri",
      response_type: "response_type",
      scope: "scope",
      code_challenge: "code_challenge",
      code_challenge_method: "code_challenge_method",
      guild_id: "guild_id",
      permissions: "permissions"
    })
    if (found.length > 0)
      return `The link is not a valid authorization request. ${found.map((f) => f.message).join(" ")}`
  }
  return explain(result)?.text ?? "The request could not be read."
}

const SCOPE_WORDS = {
  identify: "Know who you are: your username, display name and avatar",
  bot: "Add a bot to a server you manage, with the permissions chosen below"
}

/**
 * A picture from the API's media routes (`/app-icons/{id}/{hash}`, `/avatars/{id}/{hash}`), or, when
 * there is none or it does not load, a square with the name's first letter. Decorative: the name is
 * written beside it.
 */
const picture = (element, route, id, hash, name) => {
  const letter = () => {
    element.replaceChildren((Array.from(name.trim())[0] ?? "?").toUpperCase())
    element.classList.remove("pictured")
  }
  letter()
  if (typeof hash !== "string" || !/^(a_)?[0-9a-f]{32}$/.test(hash)) return
  const image = new Image()
  image.alt = ""
  image.addEventListener("load", () => {
    element.replaceChildren(image)
    element.classList.add("pictured")
  })
  image.addEventListener("error", letter)
  image.src = `${apiBase()}/${route}/${encodeURIComponent(id)}/${hash}.png`
}

const checkbox = (bit, words, checked) => {
  const id = `perm-${bit}`
  const row = document.createElement("div")
  row.className = "check"
  const input = document.createElement("input")
  input.type = "checkbox"
  input.id = id
  input.value = bit.toString()
  input.checked = checked
  // The person's choice, kept while a server where they lack the permission shows it unticked.
  input.dataset.wanted = String(checked)
  input.addEventListener("change", () => {
    input.dataset.wanted = String(input.checked)
  })
  input.setAttribute("aria-describedby", `${id}-note`)
  const label = document.createElement("label")
  label.htmlFor = id
  label.textContent = words
  // Said in words, not only by the greyed-out box.
  const note = document.createElement("span")
  note.className = "hint lacking"
  note.id = `${id}-note`
  note.textContent = "You do not have this permission in that server, so you cannot give it."
  note.hidden = true
  const text = document.createElement("div")
  text.append(label, note)
  row.append(input, text)
  return row
}

let guilds = []

/** Permissions the person lacks in the chosen server cannot be given: shown unticked and disabled. */
const syncPermissions = () => {
  const guild = guilds.find((g) => g.id === $("guild").value)
  for (const input of $("permissions").querySelectorAll("input[type=checkbox]")) {
    const lacking = guild !== undefined && !canGrant(guild.permissions, BigInt(input.value))
    input.disabled = lacking
    input.checked = !lacking && input.dataset.wanted === "true"
    $(`${input.id}-note`).hidden = !lacking
  }
}

const showConsent = (answer) => {
  const app = answer.application ?? {}
  const name = String(app.name ?? "An application")
  $("app-name").textContent = name
  $("app-name-2").textContent = name
  document.title = `Authorize ${name} · Veche`
  picture($("app-mark"), "app-icons", String(app.id), app.icon, name)
  const description = typeof app.description === "string" ? app.description.trim() : ""
  $("app-description").textContent = description
  $("app-description").hidden = description === ""
  const user = answer.user ?? {}
  picture($("user-mark"), "avatars", String(user.id), user.avatar, String(user.username ?? "?"))
  $("user-name").textContent =
    typeof user.global_name === "string" && user.global_name !== ""
      ? `${user.global_name} (@${user.username})`
      : `@${user.username}`

  const scopes = Array.isArray(answer.scopes) ? answer.scopes : []
  $("scopes").replaceChildren(
    ...scopes.map((scope) => {
      const item = document.createElement("li")
      item.textContent = SCOPE_WORDS[scope] ?? `Use the "${scope}" permission`
      return item
    })
  )

  const bot = scopes.includes("bot")
  // A bot invitation alone reads nothing of the account: say what it does instead.
  $("consent-aim").textContent = scopes.every((scope) => scope === "bot")
    ? "wants to join a server you manage"
    : "wants to access your account"
  $("bot-part").hidden = !bot
  if (bot) {
    guilds = Array.isArray(answer.guilds) ? answer.guilds : []
    const select = $("guild")
    const placeholder = new Option(guilds.length === 0 ? "You manage no server" : "Choose a server", "")
    select.replaceChildren(placeholder, ...guilds.map((g) => new Option(String(g.name), String(g.id))))
    const preset = new URLSearchParams(query).get("guild_id")
    if (preset !== null && guilds.some((g) => g.id === preset)) select.value = preset
    $("asked").replaceChildren(
      ...PERMISSIONS.filter((p) => (asked & p.bit) === p.bit).map((p) => checkbox(p.bit, p.words, true))
    )
    $("asked-none").hidden = asked !== 0n
    $("others").replaceChildren(
      ...PERMISSIONS.filter((p) => (asked & p.bit) !== p.bit).map((p) => checkbox(p.bit, p.words, false))
    )
    syncPermissions()
  }

  const redirect = typeof answer.redirect_uri === "string" ? answer.redirect_uri : null
  $("redirect").textContent =
    redirect === null
      ? "After you answer, this page tells you when it is done."
      : `After you answer, you will be sent to ${redirect}.`
  show("consent")
}

/** Asks the API about the request in the address; signs in first when this tab has no session. */
const load = async () => {
  if (session.get() === null) return show("login")
  const result = await session.call("GET", `/oauth2/authorize${query}`)
  if (result.status === 200 && result.body !== null) return showConsent(result.body)
  if (result.status === 401 && session.get() === null) {
    // The session ended (signed out elsewhere, its refresh refused): sign in again.
    login.say("Your session has ended. Sign in again.")
    return show("login")
  }
  $("failed-text").textContent = explainRequest(result)
  show("failed")
}

// ---- the answer -------------------------------------------------------------------------------

const consentError = $("consent-error")

const explainAnswer = (result) => {
  const code = result.body?.code
  if (code === 50013)
    return {
      text: "You may not add bots to that server: it needs the Manage Server permission there.",
      fields: ["guild_id"]
    }
  if (code === 50035 && result.body?.errors?.guild_id !== undefined)
    return { text: "Choose a server to add the bot to.", fields: ["guild_id"] }
  if (code === 10004 || code === 50001)
    return {
      text: "That server no longer exists or you are no longer in it. Choose another one.",
      fields: ["guild_id"]
    }
  if (code === 30005)
    return {
      text: "That server has as many roles as it may have, so the bot cannot get one. Remove a role first.",
      fields: []
    }
  return explain(result, { guild_id: "Server", permissions: "Permissions" })
}

const answer = async (authorize) => {
  const button = authorize ? $("authorize") : $("cancel")
  if ($("authorize").disabled || $("cancel").disabled) return
  const bot = !$("bot-part").hidden
  const body = { authorize }
  if (authorize && bot) {
    const guild = $("guild").value
    if (guild === "") {
      showError(consentError, "Choose a server to add the bot to.")
      return markInvalid({ guild_id: $("guild") }, ["guild_id"], button)
    }
    let permissions = 0n
    for (const input of $("permissions").querySelectorAll("input[type=checkbox]:checked:not(:disabled)")) {
      permissions |= BigInt(input.value)
    }
    body.guild_id = guild
    body.permissions = permissions.toString()
  }
  const other = authorize ? $("cancel") : $("authorize")
  other.disabled = true
  const idle = busy(button, authorize ? "Authorizing…" : "Cancelling…")
  showError(consentError, null)
  const result = await session.call("POST", `/oauth2/authorize${query}`, { body })
  if (result.status === 200 && typeof result.body?.location === "string") {
    show("sending")
    window.location = result.body.location
    return
  }
  idle()
  other.disabled = false
  if (result.status === 401 && session.get() === null) {
    login.say("Your session has ended. Sign in again, then answer once more.")
    return show("login")
  }
  const problem = explainAnswer(result) ?? { text: "That did not work. Try again.", fields: [] }
  showError(consentError, problem.text)
  markInvalid({ guild_id: $("guild") }, problem.fields, button)
}

$("consent-form").addEventListener("submit", (event) => {
  event.preventDefault()
  void answer(true)
})
$("cancel").addEventListener("click", () => void answer(false))
$("guild").addEventListener("change", () => {
  // A complaint about the server is answered by choosing one.
  if ($("guild").getAttribute("aria-invalid") === "true") showError(consentError, null)
  $("guild").removeAttribute("aria-invalid")
  syncPermissions()
})
$("switch").addEventListener("click", () => {
  // The session this page opened ends on the server too, not only in this tab.
  void session.end()
  login.say(null)
  showError(consentError, null)
  show("login")
})

void load()
