// The users section's staff grants: Plus for some months, or boost slots for some months, to the
// account found above (POST /moderation/billing/users/{id}/plus and …/boosts). They are staff
// grants, not purchases, so they work with payments off; the server writes them to the audit log
// (billing.plus, billing.boosts). Each form checks the spec's ranges before sending, says the
// server's refusal in words beside itself, and is disabled while its request runs (a double click
// grants once). Each form says what the account has now (Plus and its end, boost slots in force
// and free: the lookup's `billing`), and says it again after a grant, read back from the server.
import { explain, showError } from "./api.js"
import { busy, markInvalid } from "./sign-in.js"

const $ = (id) => document.getElementById(id)

/** "1".."24" and the like: digits only, within the range (the spec's integers, inclusive). */
const wholeIn = (text, min, max) => /^\d{1,2}$/.test(text) && Number(text) >= min && Number(text) <= max

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`

/**
 * A time from the API as the panel writes times elsewhere ("2026-12-26 14:03 UTC"), in one piece:
 * a narrow form would otherwise break the date at its hyphens.
 */
const utc = (iso) => {
  const time = document.createElement("time")
  time.dateTime = String(iso)
  time.className = "stamp"
  time.textContent = `${String(iso).replace("T", " ").slice(0, 16)} UTC`
  return time
}

/** What the account has of Plus, from the lookup's `billing`. */
const plusNow = (billing) => {
  if (billing.plus_active) return ["Now: Plus until ", utc(billing.premium_until), "."]
  if (billing.premium_until !== null) return ["Now: no Plus (it ended ", utc(billing.premium_until), ")."]
  return ["Now: no Plus."]
}

/** What the account has of boost slots, from the lookup's `billing`. */
const boostsNow = (billing) =>
  billing.boosts_total === 0
    ? ["Now: no boost slots."]
    : [`Now: ${plural(billing.boosts_total, "boost slot", "boost slots")}, ${billing.boosts_free} free.`]

/** Shows what the found account has now beside the forms that add to it. */
export const showBilling = (user) => {
  $("plus-now").replaceChildren(...plusNow(user.billing))
  $("boosts-now").replaceChildren(...boostsNow(user.billing))
}

/** How the user is named in a result line. */
const who = (user) => `@${user.user.username}`

/** A refusal in words; the request's fields named as the form labels them. */
const explainGrant = (result, labels) => {
  if (result.status === 403)
    return {
      text: "This account may not grant: only platform staff may, and the server no longer counts it as staff.",
      fields: []
    }
  return explain(result, labels) ?? { text: "The grant did not go through. Try again.", fields: [] }
}

/**
 * One grant form: `fields` maps the request's field names to their inputs and ranges; `path` is the
 * route under the user; `said` turns the answer's body into the result line's parts (text and nodes).
 * After a grant the account is read again and handed to `reshow` (its Plus and slots changed).
 */
const grantForm = (context, currentUser, reshow, { name, fields, path, said, busyText }) => {
  const form = $(`${name}-form`)
  const error = $(`${name}-error`)
  const result = $(`${name}-result`)
  const button = $(`${name}-submit`)
  const inputs = Object.fromEntries(Object.entries(fields).map(([field, { input }]) => [field, $(input)]))
  const labels = Object.fromEntries(
    Object.entries(fields).map(([field, { input }]) => [
      field,
      document.querySelector(`label[for="${input}"]`).textContent
    ])
  )

  form.addEventListener("submit", async (event) => {
    event.preventDefault()
    if (button.disabled) return
    const user = currentUser()
    if (user === null) return
    const wrong = Object.entries(fields)
      .filter(([field, { min, max }]) => !wholeIn(inputs[field].value.trim(), min, max))
      .map(([field]) => field)
    if (wrong.length > 0) {
      result.textContent = ""
      showError(
        error,
        wrong
          .map((field) => `${labels[field]}: a whole number from ${fields[field].min} to ${fields[field].max}.`)
          .join(" ")
      )
      return markInvalid(inputs, wrong, button)
    }
    const body = Object.fromEntries(Object.keys(fields).map((field) => [field, Number(inputs[field].value.trim())]))
    const idle = busy(button, busyText)
    showError(error, null)
    result.textContent = ""
    const answer = await context.api("POST", `/moderation/billing/users/${user.user.id}/${path}`, body)
    idle()
    if (answer.status === 200 && answer.body !== null) {
      markInvalid(inputs, [], button)
      result.replaceChildren(...said(user, answer.body, body))
      const again = await context.api("GET", `/moderation/users?id=${user.user.id}`)
      // Still the account shown (staff may have looked up another meanwhile).
      if (again.status === 200 && currentUser()?.user.id === user.user.id) reshow(again.body)
      return
    }
    // A lost session has already sent the person to sign in.
    if (answer.status === 401) return
    const problem = explainGrant(answer, labels)
    showError(error, problem.text)
    markInvalid(inputs, problem.fields, button)
  })

  return {
    /** A newly found account starts clean: no old result or complaint stays beside it. */
    reset: () => {
      showError(error, null)
      result.textContent = ""
      for (const input of Object.values(inputs)) input.removeAttribute("aria-invalid")
    }
  }
}

/**
 * Hooks both forms up once; `currentUser()` answers the account shown (or null), `reshow(user)`
 * shows it again as read after a grant.
 */
export const wireGrants = (context, currentUser, reshow) => {
  const plus = grantForm(context, currentUser, reshow, {
    name: "plus",
    fields: { months: { input: "plus-months", min: 1, max: 24 } },
    path: "plus",
    busyText: "Granting…",
    said: (user, body, sent) => [
      `Granted ${plural(sent.months, "month", "months")} of Plus to ${who(user)}: Plus until `,
      utc(body.premium_until),
      "."
    ]
  })
  const boosts = grantForm(context, currentUser, reshow, {
    name: "boosts",
    fields: {
      count: { input: "boosts-count", min: 1, max: 14 },
      months: { input: "boosts-months", min: 1, max: 24 }
    },
    path: "boosts",
    busyText: "Granting…",
    said: (user, body, sent) => [
      `Granted ${plural(body.granted, "boost", "boosts")} for ${plural(sent.months, "month", "months")} to ${who(user)}.`
    ]
  })
  return () => {
    plus.reset()
    boosts.reset()
  }
}
