/**
 * A bot through @discordjs/rest as a bot library's user would run it, with only the base URL (and
 * the test host's fetch hook) changed and the library's default `Bot` authorisation prefix: it
 * reads its user, its gateway and its application, and a users-only route rejects with the
 * library's `DiscordAPIError` 20001.
 */
import { DiscordAPIError, REST } from "@discordjs/rest"
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import {
  type RESTGetAPICurrentUserResult,
  type RESTGetAPIGatewayBotResult,
  type RESTGetCurrentApplicationResult,
  RESTJSONErrorCodes,
  Routes
} from "discord-api-types/v10"
import { Effect } from "effect"
import { register } from "./support/Accounts.ts"
import { createApplication, resetBotToken } from "./support/ApplicationScenarios.ts"

describe("A bot through @discordjs/rest", () => {
  layer(TestHost.layer())((it) => {
    it.effect("reads /users/@me, /gateway/bot and /applications/@me; a users-only route rejects with 20001", () =>
      Effect.gen(function* () {
        const owner = yield* register("+79050002001", "djs_developer")
        const app = yield* createApplication(owner.access_token, "Library Bot")
        const token = yield* resetBotToken(owner.access_token, app.id)
        const host = yield* TestHost.TestHost
        // the library's defaults (authPrefix "Bot"): only the base URL and the transport differ
        const rest = new REST({
          version: "10",
          api: `${TestHost.BASE_URL}/api`,
          // undici's RequestInit type differs from the DOM one in details the test host ignores
          makeRequest: (url, init) => host.fetchPromise(url, init as unknown as RequestInit)
        }).setToken(token)

        const me = (yield* Effect.promise(() => rest.get(Routes.user()))) as RESTGetAPICurrentUserResult
        expect(me).toMatchObject({ id: app.id, username: "library_bot", bot: true })

        const gateway = (yield* Effect.promise(() => rest.get(Routes.gatewayBot()))) as RESTGetAPIGatewayBotResult
        expect(gateway).toEqual({
          url: TestHost.GATEWAY_URL,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }
        })

        const application = (yield* Effect.promise(() =>
          rest.get(Routes.currentApplication())
        )) as RESTGetCurrentApplicationResult
        expect(application).toMatchObject({
          id: app.id,
          name: "Library Bot",
          bot_public: true,
          flags: 0,
          owner: { id: owner.user_id }
        })

        const refused = yield* Effect.promise(() =>
          rest.post(Routes.guilds(), { body: { name: "Bot Guild" } }).then(
            () => undefined,
            (error: unknown) => error
          )
        )
        expect(refused).toBeInstanceOf(DiscordAPIError)
        expect(refused).toMatchObject({ status: 403, code: RESTJSONErrorCodes.BotsCannotUseThisEndpoint })
      })
    )
  })
})
