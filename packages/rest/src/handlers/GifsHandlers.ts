/**
 * Handlers of the GIF proxy: the caller (a user, or a bot by its user id) asks the domain, which
 * asks the provider under an anonymised customer id. Paging comes decoded and bounded by the API.
 */
import { Principal, RestApi } from "@veche/api"
import { Gifs } from "@veche/gifs"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { refuse } from "./GifsRefusals.ts"
import type * as GroupLayer from "./GroupLayer.ts"

export const layer: GroupLayer.Authorized<"gifs", Gifs.Gifs> = HttpApiBuilder.group(
  RestApi.RestApi,
  "gifs",
  (handlers) =>
    Effect.gen(function* () {
      const gifs = yield* Gifs.Gifs
      const caller = Effect.map(Effect.service(Principal.CurrentPrincipal), (principal) => principal.userId)
      return handlers
        .handle("gifTrending", ({ query }) =>
          Effect.flatMap(caller, (userId) =>
            gifs.trending(userId, { page: query.page, limit: query.limit }).pipe(Effect.mapError(refuse))
          )
        )
        .handle("gifSearch", ({ query }) =>
          Effect.flatMap(caller, (userId) =>
            gifs.search(userId, query.q, { page: query.page, limit: query.limit }).pipe(Effect.mapError(refuse))
          )
        )
        .handle("gifCategories", () =>
          Effect.flatMap(caller, (userId) => gifs.categories(userId).pipe(Effect.mapError(refuse)))
        )
    })
)
