/**
 * The factory behind every catalogue error class. An error made here:
 * - is a `Schema.Error` (yieldable, `catchTag`-able by its `_tag`, which is the catalogue name);
 * - encodes to exactly `{code, message}` plus its extra fields (`errors` only when given): `_tag` is
 *   kept in memory but omitted on the wire (`Schema.tagDefaultOmit`), and defaulted when decoding;
 * - answers at the entry's HTTP status (`httpApiStatus` annotation, read by HttpApi);
 * - defaults `code` and `message` from the catalogue; `message` can be overridden per instance.
 *
 *   export class UnknownGuild extends ApiError.make<UnknownGuild>()("UnknownGuild") {}
 *   new UnknownGuild()                        // {"code":10004,"message":"Unknown Guild"}
 *   new UnknownGuild({ message: "..." })      // same code, own message
 */
import { Effect, Schema } from "effect"
import * as ErrorCatalogue from "./ErrorCatalogue.ts"

/** `_tag`, `code` and `message` of an entry; `code` is its literal, so errors sharing a status differ. */
export const fields = <const N extends ErrorCatalogue.Name>(name: N) => {
  const entry: ErrorCatalogue.EntryOf<N> = ErrorCatalogue.entries[name]
  return {
    _tag: Schema.tagDefaultOmit(name),
    code: Schema.tag(entry.code),
    message: Schema.String.pipe(Schema.withConstructorDefault(Effect.succeed<string>(entry.message)))
  }
}

/** The optional free-form `errors` object most answers may carry (absent from the body unless given). */
export const optionalErrors = { errors: Schema.optionalKey(Schema.Json) }

/** The HTTP status annotation of an entry. */
export const annotations = (name: ErrorCatalogue.Name) => ({ httpApiStatus: ErrorCatalogue.entries[name].status })

/**
 * A catalogue error class with extra body fields (a typed `errors`, `mfa`, ...). Extra fields replace
 * the default optional `errors`, so pass `optionalErrors` along if the answer may still carry it.
 */
export const makeWith =
  <Self>() =>
  <const N extends ErrorCatalogue.Name, const Extra extends Schema.Struct.Fields>(name: N, extra: Extra) =>
    Schema.Error<Self>(name)({ ...fields(name), ...extra }, annotations(name))

/** A catalogue error class whose body is `{code, message}` and, when given, `errors`. */
export const make =
  <Self>() =>
  <const N extends ErrorCatalogue.Name>(name: N) =>
    makeWith<Self>()(name, optionalErrors)
