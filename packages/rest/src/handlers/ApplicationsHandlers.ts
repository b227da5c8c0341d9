/**
 * Handlers of the applications group: an owner's applications (users only) and a bot's view of its
 * own. The application object embeds its owner and its bot as users everybody sees.
 */
import { type ApplicationsApi, Principal, RestApi } from "@veche/api"
import { type Application, Applications } from "@veche/applications"
import type { Snowflake } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Effect, Option, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { refuse } from "./ApplicationsRefusals.ts"
import type * as GroupLayer from "./GroupLayer.ts"

// A bot's token does not expire: the grant `GET /oauth2/@me` shows ends at the end of time the
// wire format can say (the field is required).
const NEVER_EXPIRES = "9999-12-31T23:59:59.999Z"

export const layer: GroupLayer.AuthorizedNoStore<"applications", Applications.Applications | PublicUsers.PublicUsers> =
  HttpApiBuilder.group(RestApi.RestApi, "applications", (handlers) =>
    Effect.gen(function* () {
      const applications = yield* Applications.Applications
      const users = yield* PublicUsers.PublicUsers

      const userOf = (id: Snowflake.Snowflake, bot: boolean) =>
        Effect.map(users.find(id, bot), (found) => Option.getOrUndefined(found))

      const view = Effect.fnUntraced(function* (application: Application.Application) {
        const [owner, bot] = yield* Effect.all([userOf(application.ownerId, false), userOf(application.id, true)])
        return {
          id: application.id,
          name: application.name,
          icon: application.icon,
          description: application.description,
          summary: "",
          type: null,
          bot_public: application.botPublic,
          bot_require_code_grant: application.botRequireCodeGrant,
          team: null,
          flags: application.flags,
          redirect_uris: application.redirectUris,
          ...(owner === undefined ? {} : { owner }),
          ...(bot === undefined ? {} : { bot })
        } satisfies typeof ApplicationsApi.ApplicationView.Type
      })

      const ownApplication = Effect.flatMap(Principal.requireBot, (bot) => applications.ofBot(bot.userId))

      return handlers
        .handle("currentApplication", () => Effect.flatMap(ownApplication, view).pipe(Effect.mapError(refuse)))
        .handle("currentOAuthApplication", () => Effect.flatMap(ownApplication, view).pipe(Effect.mapError(refuse)))
        .handle("currentAuthorization", () =>
          Effect.gen(function* () {
            const application = yield* ownApplication
            const bot = yield* userOf(application.id, true)
            return {
              application: yield* view(application),
              scopes: ["bot"],
              expires: NEVER_EXPIRES,
              ...(bot === undefined ? {} : { user: bot })
            }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("createApplication", ({ payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return yield* view(yield* applications.create(user.userId, payload.name))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("listApplications", () =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return yield* Effect.forEach(yield* applications.list(user.userId), view)
          })
        )
        .handle("getApplication", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            return yield* view(yield* applications.get(user.userId, params.application_id))
          }).pipe(Effect.mapError(refuse))
        )
        .handle("updateApplication", ({ params, payload }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const updated = yield* applications.update(user.userId, params.application_id, {
              name: payload.name,
              description: payload.description,
              icon: payload.icon,
              redirectUris: payload.redirect_uris,
              botPublic: payload.bot_public,
              botRequireCodeGrant: payload.bot_require_code_grant,
              flags: payload.flags
            })
            return yield* view(updated)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("deleteApplication", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            yield* applications.remove(user.userId, params.application_id)
          }).pipe(Effect.mapError(refuse))
        )
        .handle("resetBotToken", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const token = yield* applications.resetBotToken(user.userId, params.application_id)
            return { token: Redacted.value(token) }
          }).pipe(Effect.mapError(refuse))
        )
        .handle("resetClientSecret", ({ params }) =>
          Effect.gen(function* () {
            const user = yield* Principal.requireUser
            const secret = yield* applications.resetSecret(user.userId, params.application_id)
            return { client_secret: Redacted.value(secret) }
          }).pipe(Effect.mapError(refuse))
        )
    })
  )
