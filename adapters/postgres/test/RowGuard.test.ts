import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { BlockColumns } from "../src/BlockRow.ts"
import { SnapshotColumns } from "../src/PgAccountSnapshots.ts"
import * as RowGuard from "../src/RowGuard.ts"

// The token lookup's row for GET /users/@me (PgSessionsRepo): every kind of column the guard takes.
const Row = Schema.Struct({
  session_id: Schema.BigInt,
  token_expires_at: Schema.NullOr(Schema.Date),
  last_used_at: Schema.Date,
  ...BlockColumns,
  ...SnapshotColumns,
  guild_ids: Schema.Array(Schema.String)
})
const isRow = RowGuard.of(Row)
const schemaIs = Schema.is(Row)

const row: Record<string, unknown> = {
  session_id: 1n,
  token_expires_at: new Date(0),
  last_used_at: new Date(0),
  block_reason: null,
  block_until: null,
  block_by: null,
  block_created_at: null,
  account_id: 2n,
  username: "a",
  display_name: null,
  account_created_at: new Date(0),
  phone: null,
  email: "a@example.com",
  email_verified: true,
  mfa_enabled: false,
  email_pending: null,
  has_profile: true,
  bio: null,
  avatar: null,
  banner: null,
  status: "idle",
  custom_status: null,
  theme: null,
  locale: "ru",
  guild_order: ["1", "2"],
  guild_ids: [],
  extra_column: "ignored, as the decoder ignores it"
}

/** Values of every other kind: each column must refuse those its schema refuses. */
const strangers: ReadonlyArray<unknown> = [
  null,
  undefined,
  "x",
  "1",
  1,
  1n,
  true,
  new Date(0),
  new Date(Number.NaN),
  [],
  ["1"],
  [1],
  {},
  "online",
  "away"
]

describe("RowGuard", () => {
  it("takes the row the Schema takes, and hands back the row itself", () => {
    expect(schemaIs(row)).toBe(true)
    expect(isRow(row)).toBe(true)
  })

  it("refuses, column by column, every value the Schema refuses (and takes the ones it takes)", () => {
    for (const column of Object.keys(Row.fields)) {
      for (const value of strangers) {
        const changed = { ...row, [column]: value }
        expect([column, value, isRow(changed)]).toEqual([column, value, schemaIs(changed)])
      }
      const { [column]: _missing, ...without } = row
      expect([column, "missing", isRow(without)]).toEqual([column, "missing", false])
    }
    expect(isRow(null)).toBe(false)
    expect(isRow([row])).toBe(false)
  })

  it("is not built for a schema whose decoding does more than check", () => {
    expect(() => RowGuard.of(Schema.Struct({ n: Schema.NumberFromString }))).toThrow(/decoder/)
    expect(() => RowGuard.of(Schema.Struct({ s: Schema.String.pipe(Schema.check(Schema.isMinLength(1))) }))).toThrow(
      /decoder/
    )
    expect(() => RowGuard.of(Schema.Struct({ o: Schema.optionalKey(Schema.String) }))).toThrow(/decoder/)
  })
})
