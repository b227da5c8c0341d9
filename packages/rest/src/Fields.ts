/**
 * Field rules every request schema shares: lengths and integer ranges, with the mirrored platform's
 * form codes. Pure data.
 *
 * Every length check here aborts: once a string is too long (or too short), no later check of that
 * field runs. A pattern is what costs time on an attacker's megabyte, and the length error is the
 * one the client needs. Put the length first: `Schema.check(Fields.maxLength(254), Schema.isPattern(…))`.
 */
import type {} from "@veche/errors" // the `formCode` annotation on Schema filters
import { Schema } from "effect"

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
 * A list of at most `max` items, answered as the platform answers an overlong list
 * (BASE_TYPE_MAX_LENGTH, "Must be `max` or fewer in length."). Every list in a request body has one:
 * the 1 MiB body limit alone lets a list carry tens of thousands of items into a handler.
 */
export const arrayAtMost = <S extends Schema.Top>(item: S, max: number) =>
  Schema.Array(item).pipe(Schema.check(maxLength(max)))
