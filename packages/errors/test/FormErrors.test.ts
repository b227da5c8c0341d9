/**
 * The 50035 `errors` tree from real Schema decoding failures, and the helpers domains use to build
 * one by hand. Every expectation is the exact JSON a client would receive.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema, type SchemaAST, SchemaIssue } from "effect"
import * as FormErrors from "../src/FormErrors.ts"

/** The tree for decoding `input`, with the options the API decodes requests with. */
const treeOf = <S extends Schema.Decoder<unknown>>(
  schema: S,
  input: unknown,
  options: SchemaAST.ParseOptions = { errors: "all" }
) => Effect.map(Effect.flip(Schema.decodeUnknownEffect(schema)(input, options)), FormErrors.fromSchemaError)

const leaf = (code: string, message: string) => ({
  _errors: [{ code, message }]
})

// Shapes in the style of the domains' request bodies.
const Snowflake = Schema.String.check(
  Schema.makeFilter((s: string) => /^\d{17,20}$/.test(s), {
    message: "Value is not snowflake.",
    formCode: "NUMBER_TYPE_COERCE"
  })
)

const RegisterBody = Schema.Struct({
  username: Schema.String.check(Schema.isBetweenLength(2, 32)),
  email: Schema.String.check(
    Schema.isPattern(/^[^@\s]+@[^@\s]+$/, {
      message: "Not a well formed email address.",
      formCode: "EMAIL_TYPE_INVALID_EMAIL"
    })
  ),
  password: Schema.String.check(Schema.isBetweenLength(8, 128)),
  date_of_birth: Schema.String,
  global_name: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(32))))
})

const GuildBody = Schema.Struct({
  name: Schema.String,
  settings: Schema.Struct({
    locale: Schema.Literals(["en-US", "ru"]),
    limit: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1), Schema.isLessThanOrEqualTo(100))
  }),
  tags: Schema.Array(Schema.String.check(Schema.isMaxLength(20))),
  channel_id: Snowflake
})

describe("FormErrors.fromIssue", () => {
  it.effect("reports several fields at once, a missing key and a formCode-annotated check", () =>
    Effect.gen(function* () {
      const tree = yield* treeOf(RegisterBody, { username: "x", email: "nope", password: "short", global_name: null })
      expect(tree).toEqual({
        username: leaf("BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length."),
        email: leaf("EMAIL_TYPE_INVALID_EMAIL", "Not a well formed email address."),
        password: leaf("BASE_TYPE_BAD_LENGTH", "Must be between 8 and 128 in length."),
        date_of_birth: leaf("BASE_TYPE_REQUIRED", "This field is required")
      })
    })
  )

  it.effect("reports only the first problem unless decoding asks for all", () =>
    Effect.gen(function* () {
      const tree = yield* treeOf(RegisterBody, { username: "x", email: "nope" }, {})
      expect(tree).toEqual({ username: leaf("BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.") })
    })
  )

  it.effect("nests objects and puts array elements under their index", () =>
    Effect.gen(function* () {
      const tree = yield* treeOf(GuildBody, {
        name: "ok",
        settings: { locale: "de", limit: 0 },
        tags: ["fine", "x".repeat(21), 5],
        channel_id: "abc"
      })
      expect(JSON.stringify(tree)).toBe(
        JSON.stringify({
          settings: {
            locale: leaf("BASE_TYPE_CHOICES", "Value must be one of {'en-US', 'ru'}."),
            limit: leaf("NUMBER_TYPE_MIN", "Value should be greater than or equal to 1.")
          },
          tags: {
            "1": leaf("BASE_TYPE_MAX_LENGTH", "Must be 20 or fewer in length."),
            "2": leaf("BASE_TYPE_INVALID", "Must be a string.")
          },
          channel_id: leaf("NUMBER_TYPE_COERCE", "Value is not snowflake.")
        })
      )
    })
  )

  it.effect("reports an array's own check on the array node", () =>
    Effect.gen(function* () {
      const Tags = Schema.Struct({ tags: Schema.Array(Schema.String).check(Schema.isMaxLength(3)) })
      const tree = yield* treeOf(Tags, { tags: ["a", "b", "c", "d"] })
      expect(tree).toEqual({ tags: leaf("BASE_TYPE_MAX_LENGTH", "Must be 3 or fewer in length.") })
    })
  )

  it.effect("puts errors about the body itself under the top-level _errors", () =>
    Effect.gen(function* () {
      expect(yield* treeOf(RegisterBody, "not an object")).toEqual(leaf("DICT_TYPE_CONVERT", "Must be an object."))
      expect(yield* treeOf(Schema.Array(Snowflake), { not: "a list" })).toEqual(
        leaf("LIST_TYPE_CONVERT", "Must be an array.")
      )
    })
  )

  it.effect("gives a struct-level check's formCode to the field it points at", () =>
    Effect.gen(function* () {
      const PasswordChange = Schema.Struct({ new_password: Schema.String, confirm: Schema.String }).check(
        Schema.makeFilter(
          (body) => body.new_password === body.confirm || { path: ["confirm"], issue: "Passwords do not match." },
          { formCode: "PASSWORD_DOES_NOT_MATCH" }
        )
      )
      const tree = yield* treeOf(PasswordChange, { new_password: "aaaaaaaa", confirm: "bbbbbbbb" })
      expect(tree).toEqual({ confirm: leaf("PASSWORD_DOES_NOT_MATCH", "Passwords do not match.") })
    })
  )

  it.effect("takes the code from an issue a check builds itself", () =>
    Effect.gen(function* () {
      const DateOfBirth = Schema.Struct({
        date_of_birth: Schema.String.check(
          Schema.makeFilter((iso: string) =>
            /^\d{4}-\d{2}-\d{2}$/.test(iso)
              ? undefined
              : new SchemaIssue.InvalidValue({ message: "Could not parse the date.", formCode: "DATE_TYPE_PARSE" })
          )
        )
      })
      const tree = yield* treeOf(DateOfBirth, { date_of_birth: "yesterday" })
      expect(tree).toEqual({ date_of_birth: leaf("DATE_TYPE_PARSE", "Could not parse the date.") })
    })
  )

  it.effect("names wrong types in the platform's words", () =>
    Effect.gen(function* () {
      const Settings = Schema.Struct({
        count: Schema.Number,
        position: Schema.Int,
        enabled: Schema.Boolean,
        nick: Schema.NullOr(Schema.String),
        colour: Schema.String.annotate({ message: "Must be a colour name.", formCode: "COLOUR_INVALID" })
      })
      const input = { count: "abc", position: "abc", enabled: "yes", nick: 5, colour: 7 }
      expect(yield* treeOf(Settings, input)).toEqual({
        count: leaf("NUMBER_TYPE_COERCE", "Value is not a number."),
        position: leaf("NUMBER_TYPE_COERCE", "Value is not int."),
        enabled: leaf("BASE_TYPE_INVALID", "Must be either true or false."),
        nick: leaf("BASE_TYPE_INVALID", "Must be a string."),
        colour: leaf("COLOUR_INVALID", "Must be a colour name.")
      })
      // with reportInput the coercion messages quote the value, as the platform does
      expect(yield* treeOf(Settings, input, { errors: "all", reportInput: true })).toMatchObject({
        count: leaf("NUMBER_TYPE_COERCE", 'Value "abc" is not a number.'),
        position: leaf("NUMBER_TYPE_COERCE", 'Value "abc" is not int.')
      })
    })
  )

  it.effect("reports a range check by the bound crossed when the input is known", () =>
    Effect.gen(function* () {
      const Page = Schema.Struct({
        limit: Schema.Number.check(Schema.isBetween({ minimum: 1, maximum: 100 }))
      })
      expect(yield* treeOf(Page, { limit: 500 })).toEqual({
        limit: leaf("BASE_TYPE_INVALID", "Value should be between 1 and 100.")
      })
      expect(yield* treeOf(Page, { limit: 500 }, { errors: "all", reportInput: true })).toEqual({
        limit: leaf("NUMBER_TYPE_MAX", "Value should be less than or equal to 100.")
      })
      expect(yield* treeOf(Page, { limit: 0 }, { errors: "all", reportInput: true })).toEqual({
        limit: leaf("NUMBER_TYPE_MIN", "Value should be greater than or equal to 1.")
      })
    })
  )

  it.effect("maps an unexpected key when the decoder rejects them", () =>
    Effect.gen(function* () {
      const Body = Schema.Struct({ name: Schema.String })
      const tree = yield* treeOf(Body, { name: "ok", admin: true }, { errors: "all", onExcessProperty: "error" })
      expect(tree).toEqual({ admin: leaf("BASE_TYPE_UNKNOWN_FIELD", "Unknown field.") })
    })
  )
})

describe("FormErrors.fromIssue and submitted values", () => {
  it.effect("never echoes the input in fallback messages, even with reportInput", () =>
    Effect.gen(function* () {
      const Body = Schema.Struct({
        id: Schema.String.check(Schema.isUUID()),
        either: Schema.Union([Schema.String, Schema.Number]),
        password: Schema.String.check(Schema.makeFilter((s: string) => s.length > 12))
      })
      const input = { id: "hunter2-secret", either: true, password: "hunter2" }
      const options = { errors: "all", reportInput: true } as const
      const tree = yield* treeOf(Body, input, options)
      expect(tree).toEqual({
        id: leaf("BASE_TYPE_INVALID", "Expected a UUID"),
        either: leaf("BASE_TYPE_INVALID", "Expected string | number"),
        password: leaf("BASE_TYPE_INVALID", "Invalid value.")
      })
      expect(JSON.stringify(tree)).not.toContain("hunter2")
    })
  )
})

describe("FormErrors by hand", () => {
  it("builds one field error, at any depth", () => {
    expect(FormErrors.field(["username"], "USERNAME_ALREADY_TAKEN", "Username is unavailable.")).toEqual({
      username: leaf("USERNAME_ALREADY_TAKEN", "Username is unavailable.")
    })
    expect(FormErrors.field(["embeds", 0, "title"], "BASE_TYPE_REQUIRED", "This field is required")).toEqual({
      embeds: {
        "0": { title: leaf("BASE_TYPE_REQUIRED", "This field is required") }
      }
    })
    expect(FormErrors.field([], "CAPTCHA_REQUIRED", "Captcha required.")).toEqual(
      FormErrors.root("CAPTCHA_REQUIRED", "Captcha required.")
    )
    expect(FormErrors.root("CAPTCHA_REQUIRED", "Captcha required.")).toEqual(
      leaf("CAPTCHA_REQUIRED", "Captcha required.")
    )
  })

  it.effect("merges trees: nodes key by key, error lists in order", () =>
    Effect.gen(function* () {
      const fromSchema = yield* treeOf(RegisterBody, {
        username: "x",
        email: "a@b",
        password: "longenough",
        date_of_birth: "2000-01-01"
      })
      const merged = FormErrors.merge(
        fromSchema,
        FormErrors.field(["username"], "USERNAME_TOO_MANY_USERS", "Too many users have this username."),
        FormErrors.field(["profile", "bio"], "BASE_TYPE_MAX_LENGTH", "Must be 190 or fewer in length."),
        FormErrors.field(["profile", "pronouns"], "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length."),
        FormErrors.root("CAPTCHA_REQUIRED", "Captcha required.")
      )
      expect(merged).toEqual({
        username: {
          _errors: [
            { code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 32 in length." },
            { code: "USERNAME_TOO_MANY_USERS", message: "Too many users have this username." }
          ]
        },
        profile: {
          bio: leaf("BASE_TYPE_MAX_LENGTH", "Must be 190 or fewer in length."),
          pronouns: leaf("BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
        },
        _errors: [{ code: "CAPTCHA_REQUIRED", message: "Captcha required." }]
      })
      expect(FormErrors.merge()).toEqual({})
      expect(FormErrors.isEmpty(FormErrors.merge(FormErrors.empty, FormErrors.empty))).toBe(true)
      expect(FormErrors.isEmpty(merged)).toBe(false)
    })
  )

  it("has a schema that accepts trees and rejects other shapes", () => {
    const is = Schema.is(FormErrors.Tree)
    expect(
      is({
        a: { "0": leaf("X", "x") },
        _errors: [{ code: "Y", message: "y" }]
      })
    ).toBe(true)
    expect(is({})).toBe(true)
    expect(is({ a: leaf("X", "x"), b: [{ code: 1, message: "x" }] })).toBe(false)
    expect(is({ a: "text" })).toBe(false)
  })
})
