/**
 * The pure rules of sending: which mentions a content makes and what allowed_mentions lets through,
 * and a person's age by the calendar (age-restricted channels turn on the 18th birthday itself).
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime } from "effect"
import * as Mentions from "../src/Mentions.ts"
import { ageOn } from "../src/Messages.ts"

const A = Snowflake.Snowflake.make("1311000000000000001")
const B = Snowflake.Snowflake.make("1311000000000000002")
const R = Snowflake.Snowflake.make("1311000000000000003")

describe("Mentions", () => {
  it("reads users (with or without !), roles and @everyone/@here once each, in written order", () => {
    expect(Mentions.written(`<@${B}> <@!${A}> <@${B}> <@&${R}> @here`)).toEqual({
      userIds: [B, A],
      roleIds: [R],
      everyone: true
    })
    // not mentions: too long for a snowflake, malformed, or in the wrong shape
    expect(Mentions.written(`<@${"9".repeat(21)}> <@abc> <@&> @every one <#${A}>`)).toEqual({
      userIds: [],
      roleIds: [],
      everyone: false
    })
  })

  it("allowed_mentions: absent lets everything through; parse lets kinds, users/roles name ids", () => {
    const written = Mentions.written(`<@${A}> <@${B}> <@&${R}> @everyone`)
    expect(Mentions.allowed(written, undefined, true)).toEqual(written)
    expect(Mentions.allowed(written, undefined, false).everyone).toBe(false)
    expect(Mentions.allowed(written, { parse: [] }, true)).toEqual({ userIds: [], roleIds: [], everyone: false })
    expect(Mentions.allowed(written, { parse: ["users", "everyone"] }, true)).toEqual({
      userIds: [A, B],
      roleIds: [],
      everyone: true
    })
    expect(Mentions.allowed(written, { users: [B], roles: [R] }, true)).toEqual({
      userIds: [B],
      roleIds: [R],
      everyone: false
    })
    expect(Mentions.mentionsRepliedUser(undefined)).toBe(true)
    expect(Mentions.mentionsRepliedUser({ parse: [] })).toBe(false)
    expect(Mentions.mentionsRepliedUser({ repliedUser: true })).toBe(true)
  })
})

describe("ageOn", () => {
  const on = (iso: string) => DateTime.makeUnsafe(iso)
  it("counts whole years by the calendar, the birthday itself included", () => {
    expect(ageOn("2008-06-15", on("2026-06-14T23:59:59Z"))).toBe(17)
    expect(ageOn("2008-06-15", on("2026-06-15T00:00:00Z"))).toBe(18)
    expect(ageOn("2008-12-31", on("2026-01-01T00:00:00Z"))).toBe(17)
    expect(ageOn("1995-01-01", on("2026-01-01T00:00:00Z"))).toBe(31)
  })
})
