/**
 * The moderation domain's refusal table: every refusal a staff handler can meet becomes a catalogue
 * error. The HTTP answers themselves are pinned by the scenarios in test/ (blocks, restrictions).
 */
import { describe, expect, it } from "@effect/vitest"
import { ModerationErrors } from "@veche/moderation"
import { refuse } from "../src/handlers/ModerationRefusals.ts"

const refusals = [
  [new ModerationErrors.NotStaff(), "MissingPermissions"],
  [new ModerationErrors.NoSuchUser(), "UnknownUser"],
  [new ModerationErrors.CannotBlockSelf(), "InvalidFormBody"],
  [new ModerationErrors.BlockEndInPast(), "InvalidFormBody"],
  [new ModerationErrors.CannotRestrictSelf(), "InvalidFormBody"],
  [new ModerationErrors.RestrictionEndInPast(), "InvalidFormBody"]
] as const

describe("ModerationRefusals", () => {
  it("turns every moderation refusal into its catalogue error and leaves other errors alone", () => {
    for (const [refusal, api] of refusals) expect([refusal._tag, refuse(refusal)._tag]).toEqual([refusal._tag, api])
    expect(JSON.stringify(refuse(new ModerationErrors.CannotBlockSelf()))).toContain("CANNOT_BLOCK_SELF")
    expect(JSON.stringify(refuse(new ModerationErrors.RestrictionEndInPast()))).toContain("BASE_TYPE_BAD_DATE")
    const other = { _tag: "SomethingElse" } as const
    expect(refuse(other)).toBe(other)
  })
})
