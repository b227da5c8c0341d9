/**
 * The catalogue against the spec: every row of the "Errors" table (a row with two statuses counted
 * once per status) is in the catalogue with its exact code, status and message, and nothing else is,
 * apart from the general code-0 answers and 50109.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ErrorCatalogue from "../src/ErrorCatalogue.ts"

// Copied from the spec's Errors table: [code, status, message].
const specRows: ReadonlyArray<readonly [number, number, string]> = [
  [10002, 404, "Unknown Application"],
  [10003, 404, "Unknown Channel"],
  [10004, 404, "Unknown Guild"],
  [10006, 404, "Unknown Invite"],
  [10007, 404, "Unknown Member"],
  [10008, 404, "Unknown Message"],
  [10011, 404, "Unknown Role"],
  [10013, 404, "Unknown User"],
  [10014, 404, "Unknown Emoji"],
  [10015, 404, "Unknown Webhook"],
  [10026, 404, "Unknown Ban"],
  [10060, 404, "Unknown Sticker"],
  [20001, 403, "Bots cannot use this endpoint"],
  [20002, 403, "Only bots can use this endpoint"],
  [20016, 429, "Slowmode rate limit"],
  [20024, 403, "Cannot access age-restricted channel"],
  [20025, 403, "Account restricted"],
  [30001, 400, "Maximum number of guilds reached (100)"],
  [30002, 400, "Maximum number of friends reached (1000)"],
  [30003, 400, "Maximum number of pins reached (50)"],
  [30005, 400, "Maximum number of guild roles reached (250)"],
  [30007, 400, "Maximum number of webhooks reached"],
  [30008, 400, "Maximum number of emojis reached"],
  [30010, 400, "Maximum number of reactions reached (20)"],
  [30013, 400, "Maximum number of guild channels reached (500)"],
  [30016, 400, "Maximum number of invites reached (1000)"],
  [30032, 400, "Maximum number of applications reached (25)"],
  [30039, 400, "Maximum number of stickers reached (5)"],
  [40001, 401, "Unauthorized"],
  [40002, 403, "You need to verify your account"],
  [40005, 413, "Request entity too large"],
  [40006, 403, "This feature has been temporarily disabled"],
  [40007, 403, "The user is banned from this guild"],
  [40032, 400, "Target user is not connected to voice"],
  [40032, 404, "Target user is not connected to voice"],
  [50001, 403, "Missing Access"],
  [50002, 403, "Invalid account type"],
  [50003, 403, "Cannot execute action on a DM channel"],
  [50005, 403, "Cannot edit a message authored by another user"],
  [50006, 400, "Cannot send an empty message"],
  [50007, 403, "Cannot send messages to this user"],
  [50013, 403, "Missing Permissions"],
  [50014, 401, "Invalid authentication token"],
  [50024, 400, "Cannot execute action on this channel type"],
  [50027, 401, "Invalid Webhook Token"],
  [50033, 400, "Invalid Recipient(s)"],
  [50035, 400, "Invalid Form Body"],
  [50074, 400, "Cannot delete a channel required for Community guilds"],
  [50083, 400, "Cannot perform action on archived thread"],
  [60002, 400, "Two factor is not enabled"],
  [60003, 401, "Two factor is required for this operation"],
  [60003, 403, "Two factor is required for this operation"],
  [60008, 401, "Invalid two-factor code"],
  [70003, 403, "Phone verification code invalid or expired"],
  [70004, 403, "Email link invalid or expired"],
  [160004, 400, "A thread has already been created for this message"],
  [160006, 400, "Maximum number of active threads reached (1000)"],
  [200000, 400, "Message was blocked by AutoMod"]
]

const row = (entry: ErrorCatalogue.Entry) => [entry.code, entry.status, entry.message] as const

describe("ErrorCatalogue", () => {
  it("holds every row of the spec's Errors table, verbatim", () => {
    const catalogued = ErrorCatalogue.names.map((name) => row(ErrorCatalogue.get(name)))
    for (const specRow of specRows) expect(catalogued).toContainEqual(specRow)
  })

  it("holds nothing beyond the table but the general code-0 answers, 50055, 50109 and 60001", () => {
    const extra = ErrorCatalogue.names
      .map((name) => ErrorCatalogue.get(name))
      .filter((entry) => !specRows.some((specRow) => JSON.stringify(specRow) === JSON.stringify(row(entry))))
      .map(row)
    expect(extra).toEqual([
      [50055, 400, "Invalid Guild"],
      [50109, 400, "The request body contains invalid JSON."],
      [60001, 400, "Two factor is already enabled"],
      [0, 403, "403: Forbidden"],
      [0, 404, "404: Not Found"],
      [0, 405, "405: Method Not Allowed"],
      [0, 409, "409: Conflict"],
      [0, 415, "415: Unsupported Media Type"],
      [0, 500, "500: Internal Server Error"],
      [0, 501, "501: Not Implemented"],
      [0, 502, "502: Bad Gateway"],
      [0, 503, "503: Service Unavailable"]
    ])
  })

  it("splits the two-status rows into one entry per status", () => {
    expect(ErrorCatalogue.entries.TwoFactorRequired).toEqual({
      code: 60003,
      status: 401,
      message: "Two factor is required for this operation",
      mfa: true
    })
    expect(row(ErrorCatalogue.entries.TwoFactorRequiredForOperation)).toEqual([
      60003,
      403,
      "Two factor is required for this operation"
    ])
    expect(row(ErrorCatalogue.entries.TargetNotInVoice)).toEqual([40032, 400, "Target user is not connected to voice"])
    expect(row(ErrorCatalogue.entries.VoiceStateNotFound)).toEqual([
      40032,
      404,
      "Target user is not connected to voice"
    ])
  })

  it("never has two entries with the same code and status (clients pick an error by status, then code)", () => {
    const keys = ErrorCatalogue.names.map(
      (name) => `${ErrorCatalogue.get(name).status}/${ErrorCatalogue.get(name).code}`
    )
    expect(new Set(keys).size).toBe(keys.length)
  })
})
