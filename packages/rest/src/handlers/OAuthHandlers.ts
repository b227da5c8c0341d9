/**
 * Handlers of the OAuth consent routes (users only: bots get 20001, OAuth tokens are refused by the
 * Authorization middleware): what the consent page shows, and the user's answer as the `location`
 * the page navigates to. The request's own syntax is checked here (a PKCE challenge and its method
 * come together); everything else is the oauth domain's.
 */
import { type OAuthApi, Principal, RestApi } from "@veche/api"
import type { Application } from "@veche/applications"
import { FormCode, InvalidFormBody, UnknownUser } from "@veche/errors"
import { Permissions } from "@veche/guilds"
import { Authorizations } from "@veche/oauth"
import type { Snowflake } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Effect, Option, type Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./OAuthRefusals.ts"

type Query = Schema.Struct<typeof OAuthApi.AuthorizeQuery>["Type"]

const required = (field: string) => InvalidFormBody.field([field], FormCode.BaseTypeRequired, "This field is required")

/**
 * The authorization request the domain judges; a challenge without its method (or the reverse) is
 * 50035, and so is a request for a code without `response_type=code` (only a bot invitation, scope
 * `bot` alone, may leave it out).
 */
const requestOf = (query: Query): Effect.Effect<Authorizations.Request, InvalidFormBody> => {
  if (query.response_type === undefined && query.scope.some((scope) => scope !== "bot")) {
    return Effect.fail(required("response_type"))
  }
  if (query.code_challenge !== undefined && query.code_challenge_method === undefined) {
    return Effect.fail(required("code_challenge_method"))
  }
  if (query.code_challenge_method !== undefined && query.code_challenge === undefined) {
    return Effect.fail(required("code_challenge"))
  }
  return Effect.succeed({
    clientId: query.client_id,
    scopes: query.scope,
    redirectUri: query.redirect_uri,
    state: query.state,
    codeChallenge: query.code_challenge
  })
}

const applicationView = (application: Application.Application) => ({
  id: application.id,
  name: application.name,
  icon: application.icon,
  description: application.description,
  bot_public: application.botPublic,
  bot_require_code_grant: application.botRequireCodeGrant
})

export const layer: GroupLayer.AuthorizedNoStore<"oauth", Authorizations.Authorizations | PublicUsers.PublicUsers> =
  HttpApiBuilder.group(RestApi.RestApi, "oauth", (handlers) =>
    Effect.gen(function* () {
      const authorizations = yield* Authorizations.Authorizations
      const users = yield* PublicUsers.PublicUsers

      const userOf = (id: Snowflake.Snowflake, bot: boolean) =>
        Effect.map(users.find(id, bot), (found) => Option.getOrUndefined(found))

      return handlers
        .handle("describeAuthorization", ({ query }) =>
          Effect.gen(function* () {
            const principal = yield* Principal.requireUser
            const described = yield* authorizations.describe(principal.userId, yield* requestOf(query))
            const [user, bot] = yield* Effect.all([
              userOf(principal.userId, false),
              described.scopes.includes("bot") ? userOf(described.application.id, true) : Effect.succeed(undefined)
            ])
            // The caller's own user row exists while their token does; none is a race with deletion.
            if (user === undefined) return yield* new UnknownUser()
            return {
              application: applicationView(described.application),
              user,
              authorized: described.authorized,
              scopes: described.scopes,
              redirect_uri: described.redirectUri,
              ...(bot === undefined ? {} : { bot }),
              ...(described.guilds === undefined
                ? {}
                : {
                    guilds: described.guilds.map((entry) => ({
                      id: entry.guild.id,
                      name: entry.guild.name,
                      icon: entry.guild.icon,
                      permissions: Permissions.toWire(entry.permissions)
                    }))
                  })
            } satisfies typeof OAuthApi.AuthorizeView.Type
          }).pipe(Effect.mapError(refuse))
        )
        .handle("decideAuthorization", ({ query, payload }) =>
          Effect.gen(function* () {
            const principal = yield* Principal.requireUser
            const location = yield* authorizations.decide(principal.userId, yield* requestOf(query), {
              authorize: payload.authorize,
              guildId: payload.guild_id ?? query.guild_id,
              permissions: payload.permissions ?? query.permissions
            })
            return { location }
          }).pipe(Effect.mapError(refuse))
        )
    })
  )
