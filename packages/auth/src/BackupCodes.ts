/**
 * Backup codes for two-factor login: 10 per set, shown once as `xxxxxxxx-xxxx` (lower-case letters
 * and digits, 62 bits each, from the CSPRNG), stored salted-hashed. Input is normalised the way
 * people retype them: case, spaces and the hyphen do not matter.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto"

export const SET_SIZE = 10
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

const randomChars = (count: number): string => {
  let out = ""
  for (let i = 0; i < count; i++) out += ALPHABET[randomInt(ALPHABET.length)]
  return out
}

/** A fresh set of codes, as shown to the user. */
export const generateSet = (): ReadonlyArray<string> =>
  Array.from({ length: SET_SIZE }, () => `${randomChars(8)}-${randomChars(4)}`)

/** The 12 characters of a code, or none when the input cannot be a backup code. */
export const normalise = (input: string): string | undefined => {
  const compact = input.replace(/[\s-]/g, "").toLowerCase()
  return /^[a-z0-9]{12}$/.test(compact) ? compact : undefined
}

/** Looks like a backup code (as opposed to a 6-digit app code). */
export const isBackupCodeShape = (input: string): boolean => normalise(input) !== undefined

const digestOf = (salt: Buffer, code: string): Buffer => createHash("sha256").update(salt).update(code, "utf8").digest()

/** `salt$digest` (hex) of a normalised code; a per-code salt, so equal codes never look equal. */
export const hash = (code: string): string => {
  const salt = randomBytes(16)
  return `${salt.toString("hex")}$${digestOf(salt, code).toString("hex")}`
}

/** Whether a normalised code matches a stored `salt$digest`, in constant time. */
export const matches = (stored: string, code: string): boolean => {
  const [saltHex, digestHex] = stored.split("$")
  if (saltHex === undefined || digestHex === undefined) return false
  const expected = Buffer.from(digestHex, "hex")
  const actual = digestOf(Buffer.from(saltHex, "hex"), code)
  return expected.length === actual.length && timingSafeEqual(expected, actual)
}
