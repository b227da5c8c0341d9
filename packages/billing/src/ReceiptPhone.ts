/**
 * The customer's phone for the 54-FZ receipt: YooKassa takes digits only, country code first
 * ("79001234567"). Accepted: a Russian number written as +7…, 7… or 8… with 10 digits after it,
 * spaces, dashes and brackets ignored. Anything else is refused before a payment is created.
 */
import { Option } from "effect"

/** At most this many characters are looked at (a linear scan; no regular expression backtracking). */
const MAX_INPUT = 32

export const normalize = (input: string): Option.Option<string> => {
  if (input.length > MAX_INPUT) return Option.none()
  let digits = ""
  for (const [index, char] of [...input].entries()) {
    if (char >= "0" && char <= "9") digits += char
    else if (char === "+" && index === 0) continue
    else if (char === " " || char === "-" || char === "(" || char === ")") continue
    else return Option.none()
  }
  if (digits.length !== 11) return Option.none()
  if (digits.startsWith("8")) digits = `7${digits.slice(1)}`
  return digits.startsWith("7") ? Option.some(digits) : Option.none()
}
