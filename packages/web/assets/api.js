// The pages' one conversation with the API: POST JSON to the configured base, and say what the
// answer means in words a person understands (the API's codes are for programs).

/** The API's base URL, as the server filled it into the page. */
export const apiBase = () =>
  document.querySelector('meta[name="veche-api-base"]')?.getAttribute("content") ?? "/api/v10"

/** The token from the link (`?token=…`), or null when the address lost it. */
export const linkToken = () => {
  const token = new URLSearchParams(window.location.search).get("token")
  return token === null || token.trim() === "" ? null : token.trim()
}

/**
 * Calls the API: `method` on `path` (under the base), with a JSON body and a bearer token when
 * given; resolves to `{status, body}`, or `{status: 0}` when the server could not be reached.
 */
export const call = async (method, path, { body, token } = {}) => {
  try {
    const headers = {}
    if (body !== undefined) headers["content-type"] = "application/json"
    if (token !== undefined && token !== null) headers.authorization = `Bearer ${token}`
    const response = await fetch(`${apiBase()}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: "omit",
      referrerPolicy: "no-referrer",
      cache: "no-store"
    })
    const text = await response.text()
    let parsed = null
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {
      parsed = null
    }
    return { status: response.status, body: parsed }
  } catch {
    return { status: 0, body: null }
  }
}

/** POSTs a JSON body without credentials (the letters' pages: the link's token is the credential). */
export const post = (path, body) => call("POST", path, { body })

export const LINK_INCOMPLETE =
  "This link is incomplete: the address has no token. Open the link from the letter again, or copy the whole address into your browser."

const LINK_INVALID =
  "This link does not work any more: it has expired, has already been used, or a newer letter replaced it. Ask for a new letter and use the link in the newest one."

/** Every field message in a 50035 answer's `errors` tree with its dotted path, unlabelled. */
const fieldErrors = (errors, path = []) => {
  if (errors === null || typeof errors !== "object") return []
  const own = Array.isArray(errors._errors)
    ? errors._errors.map((e) => ({ field: path.join("."), message: String(e?.message ?? "") }))
    : []
  const nested = Object.entries(errors)
    .filter(([key]) => key !== "_errors")
    .flatMap(([key, value]) => fieldErrors(value, [...path, key]))
  return [...own, ...nested]
}

/**
 * Every field message in a 50035 answer's `errors` tree, labelled (once) by the field's name as the
 * page shows it.
 */
export const fieldMessages = (errors, labels) =>
  fieldErrors(errors).map(({ field, message }) => ({
    field,
    message: `${labels[field] ?? "The request"}: ${message}`
  }))

/**
 * What an answer means for the person, `{text, fields}` (fields: the names the API objected to), or
 * null for success. `labels` names the request's fields as the page shows them.
 */
export const explain = (result, labels = {}) => {
  const { status, body } = result
  if (status >= 200 && status < 300) return null
  if (status === 0) return { text: "We could not reach the server. Check your connection and try again.", fields: [] }
  if (status === 429) {
    const seconds = Math.max(1, Math.ceil(Number(body?.retry_after ?? 60)))
    const wait = seconds >= 90 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`
    return { text: `Too many attempts. Please wait ${wait} and try again.`, fields: [] }
  }
  switch (body?.code) {
    case 70004:
      return { text: LINK_INVALID, fields: [] }
    case 60003:
      return {
        text: "This account uses two-factor authentication. Enter the code from your authenticator app below and press the button again.",
        fields: ["code"]
      }
    case 60008:
      return {
        text: "That two-factor code is not right. Enter the current code from your authenticator app (it changes every 30 seconds) or an unused backup code.",
        fields: ["code"]
      }
    case 40007:
      return { text: "This account is suspended, so this cannot be done here. Contact support.", fields: [] }
    case 50035: {
      const found = fieldMessages(body.errors, labels)
      if (found.some((f) => f.field === "token")) return { text: LINK_INVALID, fields: [] }
      return found.length > 0
        ? { text: found.map((f) => f.message).join(" "), fields: found.map((f) => f.field) }
        : { text: "Some of what you entered was not accepted. Check it and try again.", fields: [] }
    }
  }
  if (status >= 500) {
    return { text: "Something went wrong on our side. Please try again in a few minutes.", fields: [] }
  }
  return { text: `The server refused this (${status}${body?.message ? `: ${body.message}` : ""}).`, fields: [] }
}

/** Shows `text` in the page's alert (read out at once by screen readers), or hides it for null. */
export const showError = (element, text) => {
  element.textContent = text ?? ""
  element.hidden = text === null
}
