import { describe, expect, it } from "@effect/vitest"
import { FormErrors } from "@veche/errors"
import { Exit, Schema } from "effect"
import * as Fields from "../src/Fields.ts"

/** An item schema that counts how often it is checked. */
const counted = () => {
  const seen = { count: 0 }
  const item = Schema.String.pipe(
    Schema.check(
      Schema.makeFilter(() => {
        seen.count++
        return true
      })
    )
  )
  return { seen, item }
}

/** Decodes a JSON body as HttpApi does (`toCodecJson`, every error); answers the 50035 tree or "ok". */
const decode = (schema: Schema.Top, input: unknown) => {
  const exit = Schema.decodeUnknownExit(Schema.toCodecJson(schema as Schema.Codec<unknown, unknown>))(input, {
    errors: "all"
  })
  if (Exit.isSuccess(exit)) return "ok"
  const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error
  return Schema.isSchemaError(error) ? FormErrors.fromIssue(error.issue) : exit
}

describe("Fields.arrayAtMost", () => {
  it("checks the length before any item: an overlong list never reaches the item schema", () => {
    const { seen, item } = counted()
    const body = Schema.Struct({ list: Fields.arrayAtMost(item, 3) })
    expect(decode(body, { list: Array(100_000).fill("a") })).toEqual({
      list: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 3 or fewer in length." }] }
    })
    expect(seen.count).toBe(0)
    // wrong items too: only the length is reported
    expect(decode(body, { list: Array(100_000).fill(7) })).toEqual({
      list: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 3 or fewer in length." }] }
    })
    expect(seen.count).toBe(0)
  })

  it("within the cap decodes each item once and reports bad ones by index; a non-list is a type error", () => {
    const { seen, item } = counted()
    const body = Schema.Struct({ list: Fields.arrayAtMost(item, 3) })
    expect(decode(body, { list: ["a", "b", "c"] })).toBe("ok")
    expect(seen.count).toBe(3)
    expect(decode(body, { list: ["a", 7] })).toMatchObject({ list: { "1": { _errors: [{}] } } })
    expect(decode(body, { list: "abc" })).toMatchObject({ list: { _errors: [{}] } })
    expect(decode(body, { list: "abc" })).not.toMatchObject({
      list: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] }
    })
  })

  it("documents the list as before: its items (encoded) and maxItems", () => {
    const Item = Schema.Struct({ id: Schema.String, position: Fields.Int32 }).annotate({ identifier: "Item" })
    const gated = Schema.toJsonSchemaDocument(Schema.Struct({ list: Fields.arrayAtMost(Item, 3) }))
    const plain = Schema.toJsonSchemaDocument(
      Schema.Struct({ list: Schema.Array(Item).pipe(Schema.check(Fields.maxLength(3))) })
    )
    expect(gated).toEqual(plain)
    expect(gated.schema).toMatchObject({
      properties: { list: { type: "array", items: { $ref: "#/$defs/Item" }, maxItems: 3 } }
    })
  })

  it("encodes and accepts the typed list unchanged (the typed client goes through it)", () => {
    const list = Fields.arrayAtMost(Schema.NumberFromString, 2)
    expect(Schema.decodeUnknownSync(list)(["1", "2"])).toEqual([1, 2])
    expect(Schema.encodeSync(list)([1, 2])).toEqual(["1", "2"])
  })
})
