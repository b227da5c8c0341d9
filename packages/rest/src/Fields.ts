/**
 * Field rules every request schema shares: lengths and integer ranges, with the mirrored platform's
 * form codes. Pure data.
 *
 * Every length check here aborts: once a string is too long (or too short), no later check of that
 * field runs. A pattern is what costs time on an attacker's megabyte, and the length error is the
 * one the client needs. Put the length first: `Schema.check(Fields.maxLength(254), Schema.isPattern(…))`.
 */
import type {} from "@veche/errors" // the `formCode` annotation on Schema filters
import { Schema, SchemaTransformation } from "effect"

/** At most `max` characters (BASE_TYPE_MAX_LENGTH); later checks of the field do not run past it. */
export const maxLength = (max: number) =>
  Schema.isMaxLength(max, {
    message: `Must be ${max} or fewer in length.`,
    formCode: "BASE_TYPE_MAX_LENGTH"
  }).abort()

/** `min`–`max` characters (BASE_TYPE_BAD_LENGTH); later checks of the field do not run past it. */
export const betweenLength = (min: number, max: number) =>
  Schema.isBetweenLength(min, max, {
    message: `Must be between ${min} and ${max} in length.`,
    formCode: "BASE_TYPE_BAD_LENGTH"
  }).abort()

/** A string of `min`–`max` characters. */
export const lengthBetween = (min: number, max: number) => Schema.String.pipe(Schema.check(betweenLength(min, max)))

/** A string of at most `max` characters. */
export const lengthAtMost = (max: number) => Schema.String.pipe(Schema.check(maxLength(max)))

/**
 * No U+0000 (BASE_TYPE_INVALID, as `NulBytes` answers). `NulBytes` refuses it in every path, query
 * and body string before decoding; this is for text a schema itself decodes from another form
 * (a percent-encoded header), which that check never sees.
 */
export const withoutNul = Schema.makeFilter((s: string) => !s.includes("\u0000"), {
  message: "Must not contain NUL characters.",
  formCode: "BASE_TYPE_INVALID"
})

const atLeast = (min: number) =>
  Schema.isGreaterThanOrEqualTo(min, {
    message: `Value should be greater than or equal to ${min}.`,
    formCode: "NUMBER_TYPE_MIN"
  })
const atMost = (max: number) =>
  Schema.isLessThanOrEqualTo(max, {
    message: `Value should be less than or equal to ${max}.`,
    formCode: "NUMBER_TYPE_MAX"
  })

/** An integer in [min, max]; each bound reports its own code (NUMBER_TYPE_MIN / NUMBER_TYPE_MAX). */
export const intBetween = (min: number, max: number) => Schema.Int.pipe(Schema.check(atLeast(min), atMost(max)))

export const INT32_MIN = -(2 ** 31)
export const INT32_MAX = 2 ** 31 - 1

/**
 * Any integer the database's `integer` columns hold. Every integer field without narrower bounds
 * of its own (positions) uses it: a wider number would be accepted here and fail the insert.
 */
export const Int32 = intBetween(INT32_MIN, INT32_MAX)

/**
 * Any value, not looked at: the gate's input. `Schema.Unknown` will not do, since the JSON codec
 * HttpApi decodes bodies with turns it into `Schema.Json`, which walks the whole value to check it is
 * JSON (it is: HttpApi parsed it) — 60–370 ms for a 1 MiB list of `{}`. `toCodecJson: undefined`
 * says it is already in JSON form.
 */
const Unchecked = Schema.declare((_: unknown): _ is unknown => true, { toCodecJson: () => undefined })

/**
 * A list of at most `max` items, answered as the platform answers an overlong list
 * (BASE_TYPE_MAX_LENGTH, "Must be `max` or fewer in length."). Every list in a request body has one:
 * the 1 MiB body limit alone lets a list carry tens of thousands of items into a handler.
 *
 * The length is checked before any item is decoded, and only once. `Schema.Array(item)` runs its
 * checks after decoding every item: a 1 MiB body of 350 000 `{}` cost 3 s of CPU to answer "too
 * long" (and listed item errors besides). So the value first passes a gate on its encoded side —
 * "an array longer than `max`" fails, anything else (a list in range, or not a list at all) goes on
 * to `Schema.Array(item)`, which reports wrong types and bad items exactly as before. The gate looks
 * at `length` only, never at the items, so an overlong list costs nothing to refuse.
 *
 * The gate's input is any value, which alone would document the field as `{}`; its `toJsonSchema`
 * gives the OpenAPI document what it had before: `{type: "array", items, maxItems}` (items as encoded).
 */
export const arrayAtMost = <S extends Schema.Top>(item: S, max: number) => {
  const list = Schema.Array(item)
  const gate = Schema.makeFilter((value: unknown) => !Array.isArray(value) || value.length <= max, {
    message: `Must be ${max} or fewer in length.`,
    formCode: "BASE_TYPE_MAX_LENGTH",
    representation: { id: "veche/rest/Fields/arrayAtMost", payload: max, schemas: [Schema.toEncoded(item).ast] },
    toJsonSchema: ({ schemas }) => ({
      type: "array",
      ...(schemas[0] === undefined ? {} : { items: schemas[0] }),
      maxItems: max
    })
  }).abort()
  return Unchecked.pipe(Schema.check(gate), Schema.decodeTo(list, SchemaTransformation.passthrough({ strict: false })))
}
