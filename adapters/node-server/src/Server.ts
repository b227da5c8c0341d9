/**
 * The reference server as one layer: configuration, database, domain services on PostgreSQL, and
 * the REST routes behind the edge middleware on one Node HTTP port.
 */

import { join } from "node:path"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Argon2PasswordHasher } from "@veche/argon2"
import { SessionsConfig, VerificationCodes, WebLinks } from "@veche/auth"
import { DefaultDataDir, type EmbeddedPostgres } from "@veche/embedded-postgres"
import { Frames, Gateway, GatewayConfig } from "@veche/gateway"
import { GifsConfig } from "@veche/gifs"
import { Veche } from "@veche/kit"
import { MmdbGeoIp } from "@veche/maxmind"
import { MediaStorageConfig } from "@veche/media"
import { Staff } from "@veche/moderation"
import { OtplibTotpCodes } from "@veche/otplib"
import { DevOutbox, Providers, SecretBox, ServiceInfo, Snowflake } from "@veche/platform"
import { type PgDatabase, PgDeliveryStore, PgRepositories } from "@veche/postgres"
import type { RedisDispatchBus } from "@veche/redis"
import { AccessLog, CompiledAnswers, GatewayUrl, HttpEdge, RestApp } from "@veche/rest"
import { S3MediaStorage } from "@veche/s3"
import { SharpImageCodec } from "@veche/sharp"
import { SmtpMailer } from "@veche/smtp"
import { WebPageFiles, WebPages, WebPagesConfig } from "@veche/web"
import { FflateZipWriter } from "@veche/zip"
import { type Config, Duration, Effect, Layer, LogLevel, Option, References, type Schema } from "effect"
import { FetchHttpClient, HttpRouter, HttpServer, type HttpServerError } from "effect/http"
import type { Redis } from "effect/persistence"
import * as AnswersBeforeApp from "./AnswersBeforeApp.ts"
import * as ClientErrors from "./ClientErrors.ts"
import * as Database from "./Database.ts"
import * as DevSecrets from "./DevSecrets.ts"
import * as FlatServeContext from "./FlatServeContext.ts"
import * as GatewayBus from "./GatewayBus.ts"
import * as GifProviders from "./GifProviders.ts"
import * as Payments from "./Payments.ts"
import * as RateLimits from "./RateLimits.ts"
import * as ServerConfig from "./ServerConfig.ts"
import { VERSION } from "./Version.ts"

/**
 * `node:http` taken as a CommonJS builtin, never by an ESM `import`: the ESM form reads every export
 * of the module to build its namespace, and three of them (`WebSocket`, `CloseEvent`,
 * `MessageEvent`) are getters that load Node's bundled undici: 13 MB of an idle server's resident
 * memory, for a fetch client the server never uses (measured).
 */
const { createServer } = process.getBuiltinModule("node:http")

/** One line that tells a person where everything is. */
const announce = (config: ServerConfig.ServerConfig, gatewayUrl: () => string) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const url = yield* HttpServer.addressFormattedWith(Effect.succeed)
      const info = yield* ServiceInfo.ServiceInfo
      const database = Option.isSome(config.databaseUrl)
        ? "PostgreSQL at DATABASE_URL"
        : `embedded PostgreSQL in ${config.dataDir}`
      // Dev mode says what it means, and louder when the network can reach it.
      const mode =
        info.env !== "dev"
          ? info.env
          : ServerConfig.isLoopbackHost(config.host)
            ? "dev mode: /dev/outbox shows codes, any captcha passes"
            : "dev mode EXPOSED to the network by SERVICE_DEV_ON_NETWORK: /dev/outbox shows codes, any captcha passes"
      yield* Effect.logInfo(
        `Veche ${info.version} (${mode}) listening on ${url}${RestApp.BASE_PATH} — docs ${url}${RestApp.DOCS_PATH}, gateway ${gatewayUrl()}, ${database}`
      )
    })
  )

/** Why the server could not start: bad settings, the database, Redis, or the port. */
export type StartError =
  | Config.ConfigError
  | Schema.SchemaError
  | PgDatabase.Error
  | EmbeddedPostgres.EmbeddedPostgresError
  | Redis.RedisError
  | RedisDispatchBus.DispatchBusUnavailable
  | HttpServerError.ServeError
  | MmdbGeoIp.GeoIpUnavailable

export const layer: Layer.Layer<never, StartError> = Layer.unwrap(
  Effect.gen(function* () {
    const loaded = yield* ServerConfig.load
    // The embedded database's folder is settled before anything starts, so the start line names it.
    const config =
      Option.isNone(loaded.databaseUrl) && !loaded.dataDirConfigured
        ? { ...loaded, dataDir: yield* DefaultDataDir.resolve(loaded.dataDir) }
        : loaded

    // In dev, letters link to this server's own pages (unless SERVICE_WEB_URL says otherwise). Its
    // port is known once it listens (PORT=0 lets the OS pick), after the domain is built: the links
    // read this at each letter, and the listener sets it before any route is attached.
    const own = { url: ServerConfig.ownUrl(config.host, config.port), port: config.port }
    const learnOwnUrl = Layer.effectDiscard(
      Effect.map(HttpServer.HttpServer, (server) => {
        if ("port" in server.address) {
          own.url = ServerConfig.ownUrl(config.host, server.address.port)
          own.port = server.address.port
        }
      })
    )
    // The gateway's URL, unless configured, names the port actually listened on (PORT=0 too).
    const gatewayUrl = () =>
      config.gatewayUrlConfigured ? config.gatewayUrl : ServerConfig.defaultGatewayUrl(config.host, own.port)

    // One database layer (memoised by reference): the repositories and the delivery queue share it.
    const database = Database.layer(config)
    // Settings from the environment (keys from DevSecrets in dev).
    const configuration = Layer.mergeAll(
      ServiceInfo.ServiceInfo.layerConfig(VERSION),
      GatewayUrl.GatewayUrl.layerLive(gatewayUrl),
      // heartbeat interval and this node's resume URL (SERVICE_GATEWAY_NODE_URL)
      GatewayConfig.GatewayConfig.layerConfig(gatewayUrl),
      // sessions' lifetimes, and the interval of the worker that removes dead ones on every node
      SessionsConfig.SessionsConfig.layerConfig,
      Staff.StaffConfig.layerConfig,
      WebLinks.WebLinks.layerConfigWithDevDefault(() => own.url),
      VerificationCodes.VerificationCodes.layerConfig,
      SecretBox.SecretBox.layerConfig,
      Snowflake.SnowflakeGenerator.layerConfig,
      // the GIF proxy's customer-id key, cache lifetimes and content filter (SERVICE_GIFS_*)
      GifsConfig.GifsConfig.layerConfig
    )
    // Providers chosen by config (dev: console SMS and mail into the outbox, dev captcha); this server
    // installs the driver-backed adapters too.
    const providers = Layer.mergeAll(
      Providers.smsSender,
      Providers.mailer({ smtp: SmtpMailer.layerConfig }),
      Providers.captcha,
      MmdbGeoIp.layerConfig,
      Providers.carrierCheck,
      // SMS and letters are queued in PostgreSQL (sealed) and sent by a worker on every node.
      PgDeliveryStore.layer.pipe(Layer.provide(database)),
      // Profile images on the filesystem under the data folder unless SERVICE_MEDIA_STORAGE says
      // otherwise (export archives share the storage).
      MediaStorageConfig.layerConfig({ defaultDir: join(config.dataDir, "media"), s3: S3MediaStorage.layerConfig }),
      SharpImageCodec.layer,
      Argon2PasswordHasher.layerConfig,
      OtplibTotpCodes.layer,
      FflateZipWriter.layer,
      // counters (route limits and quotas)
      RateLimits.layer(config),
      // dispatches between the domains and the gateway (over Redis pub/sub with REDIS_URL, reaching
      // every node's sessions) and bots' identify limits (in Redis too); else in this process
      GatewayBus.layer(config),
      // the payment provider (SERVICE_BILLING_PROVIDER: none or yookassa)
      Payments.layer,
      // the GIF provider (SERVICE_GIFS_PROVIDER) and its cache (in Redis with REDIS_URL)
      GifProviders.layer(config)
    ).pipe(
      Layer.provide(FetchHttpClient.layer),
      // the dev outbox: what the dev adapters "send", for GET /dev/outbox (per node: a dev server is one node)
      Layer.provideMerge(DevOutbox.DevOutbox.layerMemory)
    )
    // Every domain over PostgreSQL and the providers above.
    const domain = Veche.layer.pipe(
      Layer.provideMerge(providers),
      // below the providers: the delivery store seals what it keeps with SecretBox
      Layer.provideMerge(configuration),
      Layer.provideMerge(NodeCrypto.layer),
      Layer.provideMerge(PgRepositories.layer.pipe(Layer.provide(database)))
    )

    // One line per request, written to stdout in batches rather than through a logger call each:
    // the framework's per-request logger halved throughput, ours through Effect.logInfo cost a fifth.
    const accessLog =
      config.accessLog && LogLevel.isGreaterThanOrEqualTo("Info", config.logLevel)
        ? AccessLog.batched((chunk) => process.stdout.write(chunk))
        : false
    // The routes see their own services only (each request copies what its handlers can see), and
    // only the routes see them: the server's request fibers start from the listener's context, which
    // every request copies too.
    const routeServices = RestApp.onlyServices.pipe(Layer.provide(domain))
    // The API and, beside it, the web pages its letters link to (same origin: the pages call /api/v10).
    // Their files are read before the listener starts (below), like the domain.
    const webFiles = WebPageFiles.WebPageFiles.layer.pipe(Layer.provide(WebPagesConfig.WebPagesConfig.layerConfig))
    // The plainest endpoints (`GET /version`, `/gateway`) the edge answers from their compiled form,
    // filled in with the routes.
    const compiledAnswers = CompiledAnswers.makeTable()
    const routes = Layer.mergeAll(
      RestApp.routes.pipe(Layer.provide(routeServices)),
      CompiledAnswers.layer(compiledAnswers).pipe(Layer.provide(routeServices)),
      WebPages.routes.pipe(Layer.provide(webFiles))
    )
    const edge: HttpEdge.Options = {
      trustedProxies: config.trustedProxies,
      accessLog,
      corsOrigins: config.corsOrigins,
      compiledAnswers
    }
    const http = HttpRouter.serve(routes, {
      disableLogger: true,
      disableListenLog: true,
      middleware: HttpEdge.middleware(edge)
    })
    // Order matters: the Node server starts listening when its layer is built, and a request that
    // arrives before the routes are attached would be accepted and never answered. So the domain
    // (database included; memoised, the routes get the same one) is built before the listener, and
    // the routes right after it.
    // Node's own limits against slow clients: headers and the whole request (body included) must
    // arrive in time, else it answers 408 and closes. It checks them every `connectionsCheckingInterval`
    // (default 30 s, which would stretch every limit by up to that much).
    const serverOptions = {
      headersTimeout: Duration.toMillis(config.headersTimeout),
      requestTimeout: Duration.toMillis(config.requestTimeout),
      connectionsCheckingInterval: Math.min(1000, Duration.toMillis(config.headersTimeout))
    }
    const listener = NodeHttpServer.layer(
      () =>
        AnswersBeforeApp.installed(ClientErrors.installed(createServer(serverOptions)), HttpEdge.answerBeforeApp(edge)),
      {
        host: config.host,
        port: config.port,
        gracefulShutdownTimeout: config.shutdownTimeout,
        // a gateway frame is at most 4096 characters: nothing much bigger is buffered (ws closes 1009)
        websocket: { maxPayload: Frames.MAX_INBOUND_BYTES }
      }
    ).pipe(Layer.provide(routeServices), Layer.provide(webFiles))
    // Built after the listener, so torn down before it: every gateway session gets op 7 and its
    // socket closed, and the listener's graceful shutdown does not wait on open WebSockets.
    const gatewayShutdown = Layer.effectDiscard(
      Effect.flatMap(Gateway.Gateway, (gateway) => Effect.addFinalizer(() => gateway.shutdown))
    ).pipe(Layer.provide(routeServices))
    const app = Layer.mergeAll(
      http.pipe(Layer.provide(FlatServeContext.layer)),
      gatewayShutdown,
      announce(config, gatewayUrl).pipe(Layer.provide(routeServices))
    ).pipe(Layer.provide(Layer.provideMerge(learnOwnUrl, listener)))
    return app.pipe(
      Layer.provide(DevSecrets.layer(config.dataDir)),
      Layer.provide(Layer.succeed(References.MinimumLogLevel, config.logLevel)),
      // This server exports no traces, so it makes none: without this every request and every
      // `Effect.fn` would still open a span for nobody. A host that installs an exporter keeps them.
      Layer.provide(Layer.succeed(References.TracerEnabled, false))
    )
  })
)
