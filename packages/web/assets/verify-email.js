// The e-mail confirmation page: the token stays in the address until the person presses the button;
// only then is it POSTed to the API (a mail scanner's GET of the link consumes nothing).
import { explain, LINK_INCOMPLETE, linkToken, post, showError } from "./api.js"

const form = document.getElementById("form")
const button = document.getElementById("submit")
const error = document.getElementById("error")
const token = linkToken()

if (token === null) {
  showError(error, LINK_INCOMPLETE)
  button.disabled = true
}

form.addEventListener("submit", async (event) => {
  event.preventDefault()
  if (token === null || button.disabled) return
  button.disabled = true
  button.textContent = "Confirming…"
  showError(error, null)
  const result = await post("/auth/email/verify", { token })
  const problem = explain(result, { token: "The link" })
  if (problem === null) {
    const email = typeof result.body?.email === "string" ? result.body.email : null
    document.getElementById("done-text").textContent =
      email === null ? "Your e-mail address is confirmed." : `${email} is now confirmed for your account.`
    document.getElementById("ask").hidden = true
    document.getElementById("done").hidden = false
    document.getElementById("done-title").focus()
    return
  }
  showError(error, problem.text)
  button.disabled = false
  button.textContent = "Confirm my address"
  button.focus()
})
