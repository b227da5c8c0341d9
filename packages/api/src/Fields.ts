/**
 * Field rules every request schema shares, with the mirrored platform's form codes: lengths and
 * integer ranges, lists, query parameters as the platform reads them, permission sets, images,
 * colours, optional bodies and the audit-log reason. One module, so a rule is written once. Pure data.
 *
 * Every length check here aborts: once a string is too long (or too short), no later check of that
 * field runs. A pattern is what costs time on an attacker's megabyte, and the length error is the
 * one the client needs. Put the length first: `Schema.check(Fields.maxLength(254), Schema.isPattern(…))`.
 */
import type {} from "@veche/errors" // the `formCode` annotation on Schema filters
import * as Permissions from "@veche/guilds/Permissions"
import { Effect, Schema, SchemaTransformation } from "effect"

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
    representation: { id: "veche/api/Fields/arrayAtMost", payload: max, schemas: [Schema.toEncoded(item).ast] },
    toJsonSchema: ({ schemas }) => ({
      type: "array",
      ...(schemas[0] === undefined ? {} : { items: schemas[0] }),
      maxItems: max
    })
  }).abort()
  return Unchecked.pipe(Schema.check(gate), Schema.decodeTo(list, SchemaTransformation.passthrough({ strict: false })))
}

/** An integer query parameter in [min, max]; anything but digits is NUMBER_TYPE_COERCE. */
export const queryIntBetween = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[+-]?\d{1,16}$/, { message: "Value is not int.", formCode: "NUMBER_TYPE_COERCE" })),
    Schema.decodeTo(
      intBetween(min, max),
      SchemaTransformation.transform({ decode: (s: string) => Number(s), encode: (n: number) => String(n) })
    )
  )

/** A `?limit=` in [min, max], `fallback` when absent. */
export const queryLimit = (min: number, max: number, fallback: number) =>
  queryIntBetween(min, max).pipe(Schema.withDecodingDefaultKey(Effect.succeed(String(fallback))))

/** A boolean query flag: `true`/`false` (any case) or `1`/`0`, as the platform reads them. */
export const QueryBoolean = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^(true|false|1|0)$/i, { message: "Must be either true or false.", formCode: "BASE_TYPE_INVALID" })
  ),
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (s: string) => /^(true|1)$/i.test(s),
      encode: (b: boolean) => String(b)
    })
  )
)

/** `?with_counts=true`: add approximate member and presence counts. */
export const WithCountsQuery = { with_counts: Schema.optionalKey(QueryBoolean) }

/** A permission set as the decimal string of an unsigned integer (what v10 sends back; also a query's). */
export const PermissionsString = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((s: string) => Permissions.fromWire(s) !== undefined, {
      message: "Value is not int.",
      formCode: "NUMBER_TYPE_COERCE"
    })
  ),
  Schema.decodeTo(
    Schema.BigInt,
    SchemaTransformation.transform({
      decode: (s: string) => Permissions.fromWire(s) ?? Permissions.NONE,
      encode: (permissions: bigint) => Permissions.toWire(permissions)
    })
  )
)

/**
 * A permission set as libraries send it: the decimal string of an unsigned integer (what v10 sends
 * back), or a JSON number. Bits the platform does not define are dropped, as it drops them.
 */
export const PermissionsInput = Schema.Union([
  PermissionsString,
  intBetween(0, Number.MAX_SAFE_INTEGER).pipe(
    Schema.decodeTo(
      Schema.BigInt,
      SchemaTransformation.transform({
        decode: (n: number) => BigInt(n) & Permissions.ALL,
        encode: (permissions: bigint) => Number(permissions)
      })
    )
  )
]).annotate({ message: "Value is not int.", formCode: "NUMBER_TYPE_COERCE" })

/** A data URI of an image (decoded and size-checked by the media domain), or null to remove it. */
export const ImageData = Schema.String.pipe(Schema.check(maxLength(8_000_000)))

/** 0–0xFFFFFF. */
export const Color = intBetween(0, 0xff_ff_ff)

/**
 * A body that may also be left out: an empty (or `null`) request body decodes as `{}` would, so a
 * bare `PUT` works as it does on the platform. Use as `payload: orEmpty(Body)`.
 */
export const orEmpty = <S extends Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }>(
  body: S
) =>
  [
    body,
    Schema.Null.pipe(
      Schema.decodeTo(
        body,
        SchemaTransformation.transform({
          decode: () => ({}) as S["Encoded"],
          encode: () => null
        })
      )
    )
  ] as const

/**
 * `X-Audit-Log-Reason`: the reason for a moderation action, percent-encoded by bot libraries
 * (discord.js encodes it with encodeURIComponent), at most 512 characters once decoded.
 */
export const AuditLogReason = Schema.String.pipe(
  Schema.decodeTo(
    lengthAtMost(512).pipe(Schema.check(withoutNul)),
    SchemaTransformation.transform({
      decode: (raw: string) => {
        try {
          return decodeURIComponent(raw)
        } catch {
          // Not valid percent-encoding: a client that sent the text as is.
          return raw
        }
      },
      encode: (reason: string) => encodeURIComponent(reason)
    })
  )
)

export const AuditLogHeaders = Schema.Struct({ "x-audit-log-reason": Schema.optionalKey(AuditLogReason) })
