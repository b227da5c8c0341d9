/**
 * Phone numbers. Only Russian numbers are accepted, and every number is normalised to
 * `+7XXXXXXXXXX` before it reaches a lookup, a limit key or a unique index, so that
 * `8 (916) 123-45-67` and `+79161234567` can never count as two phones.
 */
import type {} from "@veche/errors" // the `formCode` annotation on Schema filters
import { Option, Schema, SchemaTransformation } from "effect"

/** The 50035 field-error code a rejected phone reports. */
export const INVALID_FORM_CODE = "PHONE_NUMBER_INVALID"
const INVALID_MESSAGE = "Invalid phone number: only Russian numbers (+7 and 10 digits) are accepted."

/**
 * Longer input is refused before any parsing; the longest accepted spelling
 * (`+7 (916) 123 - 45 - 67` and the like) stays well under it.
 */
const MAX_INPUT_LENGTH = 32

/** Digits with the separators people type: spaces, brackets, dashes; `+` only in front. */
const TYPED = /^\+?[\d\s()-]+$/

/**
 * The ten national digits. Russia's numbering plan starts geographic codes with 3, 4 or 8 and
 * mobile codes with 9; +7 6xx and +7 7xx belong to Kazakhstan, which shares the country code,
 * so "Russian only" has to look past the `+7`.
 */
const NATIONAL = /^[3489]\d{9}$/

const CANONICAL = /^\+7[3489]\d{9}$/

/**
 * A phone already in the canonical form (what the stores hold and the API returns). Decoding it
 * accepts nothing else, so a stored value that is somehow not canonical fails loudly.
 */
export const Normalised = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => CANONICAL.test(s), {
      message: INVALID_MESSAGE,
      formCode: INVALID_FORM_CODE
    })
  ),
  Schema.brand("PhoneNumber")
)
export type PhoneNumber = typeof Normalised.Type

/**
 * `+7XXXXXXXXXX` for a Russian number in any of the usual spellings (`+7 916…`, `7 916…`,
 * `8 916…`, with spaces, brackets and dashes); none for anything else.
 */
export const normalise = (input: string): Option.Option<PhoneNumber> => {
  const trimmed = input.trim()
  if (trimmed.length > MAX_INPUT_LENGTH || !TYPED.test(trimmed)) return Option.none()
  const digits = trimmed.replace(/\D/g, "")
  if (digits.length !== 11) return Option.none()
  // With a `+` the country code must be 7; without one, the domestic trunk prefix 8 is as common.
  const prefix = digits[0]
  const valid = trimmed.startsWith("+") ? prefix === "7" : prefix === "7" || prefix === "8"
  const national = digits.slice(1)
  return valid && NATIONAL.test(national) ? Option.some(Normalised.make(`+7${national}`)) : Option.none()
}

/**
 * A phone as clients send it: decodes any accepted spelling to the canonical branded string and
 * encodes back to that canonical string. A rejected value reports `PHONE_NUMBER_INVALID` on its
 * field (400 50035 through `FormErrors`).
 */
export const PhoneNumber = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => Option.isSome(normalise(s)), {
      message: INVALID_MESSAGE,
      formCode: INVALID_FORM_CODE
    })
  ),
  Schema.decodeTo(
    Normalised,
    SchemaTransformation.transform({
      // The filter above has accepted the input, so normalising cannot fail here; the fallback
      // only keeps the function total (the canonical check on `Normalised` would still catch it).
      decode: (s: string) => Option.getOrElse(normalise(s), () => s),
      encode: (phone: string) => phone
    })
  )
)

/**
 * The masked form the API shows wherever a phone appears (`phone` of the registration and
 * recovery answers, CurrentUser): country code and the last two digits only,
 * `+79161234567` -> `+7 *** ***-**-67`.
 */
export const mask = (phone: PhoneNumber): string => `+7 *** ***-**-${phone.slice(-2)}`
