/**
 * The types of the handler groups' layers. A group's layer needs, besides its own services, the
 * middleware its routes declare (`@veche/api`'s tags); written out here once, so each group's
 * exported layer carries its full type without naming the tags itself.
 */
import type { Authorization, FormBodyErrors, NoStore, RateLimit } from "@veche/api"
import type { Layer } from "effect"
import type { HttpApiGroup } from "effect/http-api"

/** A public group's handlers: the API-wide middleware (request decoding, rate limits) runs on every route. */
export type Public<Id extends string, R> = Layer.Layer<
  HttpApiGroup.Service<"veche", Id>,
  never,
  R | FormBodyErrors.FormBodyErrors | RateLimit.RateLimit
>

/** A group whose routes take credentials: `Authorization` runs on every route too. */
export type Authorized<Id extends string, R> = Public<Id, R | Authorization.Authorization>

/**
 * A public group some of whose routes declare `NoStore` (answers no cache may keep). Only such
 * groups see that middleware: whatever a group sees, each of its requests copies.
 */
export type PublicNoStore<Id extends string, R> = Public<Id, R | NoStore.NoStore>

/** A group taking credentials some of whose routes declare `NoStore`. */
export type AuthorizedNoStore<Id extends string, R> = Authorized<Id, R | NoStore.NoStore>

/** A group outside the decoding middleware (it reads its own body): rate limits only. */
export type RateLimited<Id extends string, R> = Layer.Layer<
  HttpApiGroup.Service<"veche", Id>,
  never,
  R | RateLimit.RateLimit
>
