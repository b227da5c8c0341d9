/**
 * An integrator's host: Veche's REST routes served by their own Node process, with their own answer
 * to "whose token is this?" (here: one bot token from the environment) and no database at all.
 * Run: `./dev node examples/custom-host/src/main.ts`, then
 *   curl -H "Authorization: Bot $EXAMPLE_BOT_TOKEN" http://127.0.0.1:8090/api/v10/gateway/bot
 */

import { createServer } from "node:http"
import { NodeCrypto, NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Sessions, SessionsConfig, SessionsRepo, Tokens } from "@veche/auth"
import { DevOutbox, ServiceInfo, Snowflake } from "@veche/platform"
import { RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Authenticator, GatewayUrl, HttpEdge, RestApp } from "@veche/rest"
import { UsersRepo } from "@veche/users"
import { Effect, Layer, Redacted } from "effect"
import { HttpRouter } from "effect/http"

const botToken = process.env.EXAMPLE_BOT_TOKEN ?? "example.bot-token"
const botId = Snowflake.Snowflake.make("1311000000000000042")

// The port the Authorization middleware asks; an integrator can back it with any session store.
const OwnTokens = Layer.succeed(
  Authenticator.Authenticator,
  Authenticator.Authenticator.of({
    authenticate: (scheme, token) =>
      scheme === "Bot" && Redacted.value(token) === botToken
        ? Effect.succeed({ kind: "bot", userId: botId })
        : Effect.fail(new Authenticator.TokenInvalid())
  })
)

const app = HttpRouter.serve(RestApp.routes, {
  disableLogger: true,
  middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: true })
}).pipe(
  Layer.provide(RestApp.bodyLimit),
  Layer.provide(
    Layer.mergeAll(
      OwnTokens,
      ServiceInfo.ServiceInfo.layer({ version: "example", env: "dev" }),
      // accounts and sessions in this process (a real deployment would use @veche/postgres)
      UsersRepo.UsersRepo.layerMemory,
      DevOutbox.DevOutbox.layerMemory,
      Sessions.Sessions.layer.pipe(
        Layer.provide(SessionsRepo.SessionsRepo.layerMemory),
        Layer.provide(Tokens.Tokens.layer.pipe(Layer.provide(NodeCrypto.layer))),
        Layer.provide(SessionsConfig.SessionsConfig.layer()),
        Layer.provide(Snowflake.SnowflakeGenerator.layer(1))
      ),
      // the production bucket table, counters in this process
      RouteLimiter.RouteLimiter.layer.pipe(
        Layer.provide(RouteBuckets.RouteBuckets.layer()),
        Layer.provide(RateLimitStore.layerMemory)
      ),
      Layer.orDie(GatewayUrl.GatewayUrl.layer("ws://127.0.0.1:8090/gateway"))
    )
  ),
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 8090 }))
)

Layer.launch(app).pipe(NodeRuntime.runMain)
