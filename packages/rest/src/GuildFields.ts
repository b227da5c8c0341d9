/**
 * The request-side field kit of the guild groups (`GuildsApi`, `MembersApi`, `RolesApi`), which the
 * channel and invite groups share too: ranges built on `Fields`, query parameters as the
 * platform reads them, permission sets, images, colours, optional bodies, the audit-log reason, the
 * `{guild_id}` path parameter and the error sets of guild routes. Pure data.
 */
import { MissingAccess, MissingPermissions, UnknownGuild } from "@veche/errors"
import { Permissions } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Effect, Schema, SchemaTransformation } from "effect"
import * as Fields from "./Fields.ts"

/** An integer query parameter in [min, max]; anything but digits is NUMBER_TYPE_COERCE. */
export const queryIntBetween = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[+-]?\d{1,16}$/, { message: "Value is not int.", formCode: "NUMBER_TYPE_COERCE" })),
    Schema.decodeTo(
      Fields.intBetween(min, max),
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

/**
 * A permission set as libraries send it: the decimal string of an unsigned integer (what v10 sends
 * back), or a JSON number. Bits the platform does not define are dropped, as it drops them.
 */
export const PermissionsInput = Schema.Union([
  Schema.String.pipe(
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
  ),
  Fields.intBetween(0, Number.MAX_SAFE_INTEGER).pipe(
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
export const ImageData = Schema.String.pipe(Schema.check(Fields.maxLength(8_000_000)))

/** 0–0xFFFFFF. */
export const Color = Fields.intBetween(0, 0xff_ff_ff)

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
    Fields.lengthAtMost(512).pipe(Schema.check(Fields.withoutNul)),
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

export const GuildParams = { guild_id: Snowflake.Snowflake }

/** The guild does not exist, or the caller is not in it. */
export const inGuild = [UnknownGuild, MissingAccess] as const
/** … and the caller needs a permission there. */
export const managing = [...inGuild, MissingPermissions] as const
