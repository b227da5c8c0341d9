import { describe, expect, it } from "@effect/vitest"
import { FormErrors } from "@veche/errors"
import { Option, Schema } from "effect"
import * as Phone from "../src/Phone.ts"

const decode = (input: unknown) => Schema.decodeUnknownOption(Phone.PhoneNumber)(input)

describe("Phone", () => {
  it("normalises the usual spellings of a Russian number to +7XXXXXXXXXX", () => {
    for (const input of [
      "+7 (916) 123-45-67",
      "8 916 123 45 67",
      "89161234567",
      "+79161234567",
      "79161234567",
      "7 916 123-45-67",
      "8 (916) 123-45-67",
      "+7-916-123-45-67",
      "  +7 916 1234567  ",
      "+7\u00a0916\u00a0123\u00a045\u00a067"
    ]) {
      expect(decode(input), input).toEqual(Option.some("+79161234567"))
    }
    // Landlines too: Moscow (495), St Petersburg (812), Novosibirsk (383).
    expect(decode("8 (495) 123-45-67")).toEqual(Option.some("+74951234567"))
    expect(decode("+7 812 123 45 67")).toEqual(Option.some("+78121234567"))
    expect(decode("8 383 123 45 67")).toEqual(Option.some("+73831234567"))
  })

  it("refuses other countries, wrong lengths, letters and stray symbols", () => {
    for (const input of [
      "+1 916 123 45 67", // another country code
      "+380 44 123 4567", // Ukraine
      "+7 701 123 45 67", // Kazakhstan shares +7 (6xx and 7xx)
      "+7 600 123 45 67",
      "+8 916 123 45 67", // 8 is a trunk prefix, never a country code
      "9161234567", // no country code or trunk prefix
      "+7916123456", // 9 national digits
      "+791612345678", // 11 national digits
      "8 916 123 45 6a",
      "+7 916 CALL-ME",
      "+7 916 123 45 67 ext 2",
      "+7+9161234567",
      "+7.916.123.45.67",
      "007 916 123 45 67",
      "+7 016 123 45 67",
      "",
      " ",
      "+",
      `+7 916${" ".repeat(40)}123 45 67`, // over the input cap
      `+7 9${"1".repeat(100)}`
    ]) {
      expect(decode(input), input).toEqual(Option.none())
    }
    expect(decode(79161234567)).toEqual(Option.none())
    expect(decode(null)).toEqual(Option.none())
  })

  it("normalise agrees with the schema", () => {
    expect(Phone.normalise("8 (916) 123-45-67")).toEqual(Option.some("+79161234567"))
    expect(Phone.normalise("+1 555 123 4567")).toEqual(Option.none())
  })

  it("encodes back to the canonical form", () => {
    const phone = Schema.decodeUnknownSync(Phone.PhoneNumber)("8 916 123 45 67")
    expect(Schema.encodeSync(Phone.PhoneNumber)(phone)).toBe("+79161234567")
  })

  it("the canonical schema accepts only +7XXXXXXXXXX", () => {
    expect(Schema.is(Phone.Normalised)("+79161234567")).toBe(true)
    expect(Schema.is(Phone.Normalised)("89161234567")).toBe(false)
    expect(Schema.is(Phone.Normalised)("+77011234567")).toBe(false)
  })

  it("a rejected phone reports PHONE_NUMBER_INVALID on its field (400 50035)", () => {
    const Body = Schema.Struct({ phone: Phone.PhoneNumber, captcha_token: Schema.optionalKey(Schema.String) })
    const result = Schema.decodeUnknownResult(Body)({ phone: "+1 (555) 123-4567" }, { errors: "all" })
    if (result._tag !== "Failure") return expect.fail("decoded a foreign number")
    expect(FormErrors.fromSchemaError(result.failure)).toEqual({
      phone: {
        _errors: [
          {
            code: "PHONE_NUMBER_INVALID",
            message: "Invalid phone number: only Russian numbers (+7 and 10 digits) are accepted."
          }
        ]
      }
    })
  })

  it("a phone of the wrong type is a base type error, and a missing one is required", () => {
    const Body = Schema.Struct({ phone: Phone.PhoneNumber })
    const tree = (input: unknown) => {
      const result = Schema.decodeUnknownResult(Body)(input, { errors: "all" })
      return result._tag === "Failure" ? FormErrors.fromSchemaError(result.failure) : {}
    }
    expect(tree({ phone: 79161234567 })).toEqual({
      phone: { _errors: [{ code: "BASE_TYPE_INVALID", message: "Must be a string." }] }
    })
    expect(tree({})).toEqual({
      phone: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] }
    })
  })

  it("masks a phone as +7 *** ***-**-NN", () => {
    const phone = Schema.decodeUnknownSync(Phone.PhoneNumber)("+7 (916) 123-45-67")
    expect(Phone.mask(phone)).toBe("+7 *** ***-**-67")
    expect(Phone.mask(phone)).not.toContain("916")
  })
})
