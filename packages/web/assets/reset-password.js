// The password reset page: asks the new password twice, and the two-factor code once the API says
// the account has it on (60003 with mfa: true); the token is POSTed only with the new password.
import { explain, LINK_INCOMPLETE, linkToken, post, showError } from "./api.js"

const form = document.getElementById("form")
const button = document.getElementById("submit")
const error = document.getElementById("error")
const password = document.getElementById("password")
const repeat = document.getElementById("repeat")
const show = document.getElementById("show")
const codeField = document.getElementById("code-field")
const code = document.getElementById("code")
const token = linkToken()

const LABELS = { new_password: "New password", code: "Two-factor code", token: "The link" }
const INPUTS = { new_password: password, repeat, code }

/** Marks the named inputs invalid (and only them) and focuses the first. */
const markInvalid = (names) => {
  for (const [name, input] of Object.entries(INPUTS)) {
    if (names.includes(name)) input.setAttribute("aria-invalid", "true")
    else input.removeAttribute("aria-invalid")
  }
  const first = names.map((name) => INPUTS[name]).find((input) => input !== undefined)
  first?.focus()
}

const fail = (text, fields = []) => {
  showError(error, text)
  markInvalid(fields)
  if (fields.length === 0) button.focus()
}

if (token === null) {
  showError(error, LINK_INCOMPLETE)
  for (const element of form.elements) element.disabled = true
}

show.addEventListener("change", () => {
  const type = show.checked ? "text" : "password"
  password.type = type
  repeat.type = type
})

form.addEventListener("submit", async (event) => {
  event.preventDefault()
  if (token === null || button.disabled) return
  if (password.value.length < 8) return fail("New password: use at least 8 characters.", ["new_password"])
  if (password.value.length > 128) return fail("New password: use at most 128 characters.", ["new_password"])
  if (repeat.value !== password.value)
    return fail("The two passwords are not the same. Type the new password again in both fields.", ["repeat"])
  const mfaCode = code.value.replace(/\s/g, "")
  if (!codeField.hidden && mfaCode === "")
    return fail("Two-factor code: enter the code from your authenticator app.", ["code"])

  button.disabled = true
  button.textContent = "Changing…"
  showError(error, null)
  const body = { token, new_password: password.value, ...(codeField.hidden ? {} : { code: mfaCode }) }
  const result = await post("/auth/recover/email/verify", body)
  button.disabled = false
  button.textContent = "Change my password"
  const problem = explain(result, LABELS)
  if (problem === null) {
    password.value = ""
    repeat.value = ""
    code.value = ""
    document.getElementById("ask").hidden = true
    document.getElementById("done").hidden = false
    document.getElementById("done-title").focus()
    return
  }
  if (result.body?.code === 60003 && result.body?.mfa === true) codeField.hidden = false
  fail(problem.text, problem.fields)
})
