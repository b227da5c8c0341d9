/**
 * The catalogue's refusal table: every refusal a catalogue handler can meet becomes a catalogue
 * error, each join refusal the one the invitation route answers. The HTTP answers themselves are
 * pinned by test/support/DiscoveryScenarios.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { DiscoveryErrors } from "@veche/discovery"
import { refuse } from "../src/handlers/DiscoveryRefusals.ts"

const refusals = [
  [new DiscoveryErrors.NotInCatalogue(), "UnknownGuild"],
  [new DiscoveryErrors.NotGuildOwner(), "MissingAccess"],
  [new DiscoveryErrors.NotStaff(), "MissingPermissions"],
  [new DiscoveryErrors.PublicLimitReached(), "Conflict"],
  [new DiscoveryErrors.UnknownCategory(), "InvalidFormBody"],
  [DiscoveryErrors.ConditionsUnmet.of([{ condition: "size", message: "More members." }]), "InvalidFormBody"],
  [new DiscoveryErrors.JoinRefused({ reason: "banned" }), "Banned"],
  [new DiscoveryErrors.JoinRefused({ reason: "restricted" }), "AccountRestricted"],
  [new DiscoveryErrors.JoinRefused({ reason: "verification" }), "VerificationRequired"],
  [new DiscoveryErrors.JoinRefused({ reason: "guild_limit" }), "MaxGuildsReached"]
] as const

describe("DiscoveryRefusals", () => {
  it("turns every catalogue refusal into its API error and leaves other errors alone", () => {
    for (const [refusal, api] of refusals) expect([refusal._tag, refuse(refusal)._tag]).toEqual([refusal._tag, api])
    const unmet = refuse(
      DiscoveryErrors.ConditionsUnmet.of([
        { condition: "size", message: "More members." },
        { condition: "nsfw_properties", message: "Words in name." },
        { condition: "nsfw_properties", message: "Words in description." }
      ])
    )
    expect(unmet.errors).toEqual({
      size: { _errors: [{ code: "DISCOVERY_REQUIREMENT_UNMET", message: "More members." }] },
      nsfw_properties: {
        _errors: [
          { code: "DISCOVERY_REQUIREMENT_UNMET", message: "Words in name." },
          { code: "DISCOVERY_REQUIREMENT_UNMET", message: "Words in description." }
        ]
      }
    })
    const other = { _tag: "SomethingElse" } as const
    expect(refuse(other)).toBe(other)
  })
})
