/**
 * The whole REST API in-process, for our tests and integrators' tests: the same routes and edge
 * middleware as the reference server, on memory layers (or on repositories the caller supplies,
 * e.g. PostgreSQL), with its own test clock. Requests go
 * through `fetch` (exact wire format) or a typed client derived from the HttpApi.
 *
 *   const host = yield* TestHost.TestHost
 *   const response = yield* host.fetch("/api/v10/version")
 *   yield* host.adjustClock("15 minutes")
 */
import { Authorization, RestApi } from "@veche/api"
import type { Applications } from "@veche/applications"
import { Argon2PasswordHasher } from "@veche/argon2"
import { type Sessions, SessionsConfig, VerificationCodes, WebLinks } from "@veche/auth"
import { PaymentProvider } from "@veche/billing"
import { DispatchSource, GatewayConfig, IdentifyLimits, PresenceStore } from "@veche/gateway"
import { DevGifProvider, GifCache, type GifProvider, GifsConfig } from "@veche/gifs"
import { Veche } from "@veche/kit"
import { MediaStorage } from "@veche/media"
import { Staff } from "@veche/moderation"
import type { OAuthTokens } from "@veche/oauth"
import { OtplibTotpCodes } from "@veche/otplib"
import {
  Captcha,
  CarrierCheck,
  DeliveryStore,
  DevOutbox,
  EventBus,
  GeoIp,
  Mailer,
  SecretBox,
  ServiceInfo,
  SmsSender,
  Snowflake
} from "@veche/platform"
import { QuotaLimiter, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import {
  type AccessLog,
  type Authenticator,
  CompiledAnswers,
  GatewayUrl,
  HttpEdge,
  RestApp,
  SessionAuthenticator,
  TrustedProxies
} from "@veche/rest"
import { SharpImageCodec } from "@veche/sharp"
import { WebPages } from "@veche/web"
import { FflateZipWriter } from "@veche/zip"
import { Context, type Duration, Effect, Layer, Option, Redacted, Schema, type Scope } from "effect"
import { Digest, Mac, SecureRandom } from "effect/crypto"
import {
  FetchHttpClient,
  HttpClient,
  HttpClientRequest,
  HttpEffect,
  HttpRouter,
  HttpServer,
  HttpServerRequest,
  type HttpServerResponse
} from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import type { IpNetwork } from "effect/net"
import { TestClock } from "effect/testing"

export const BASE_URL = "http://veche.test"
export const GATEWAY_URL = "ws://veche.test/gateway"
/** The test clock starts here, not at 1970: ids and dates then look like real ones. */
export const START_TIME = Date.UTC(2026, 0, 1)

export interface Credential {
  readonly scheme: Authenticator.Scheme
  readonly token: string
}

export type Client = HttpApiClient.ForApi<typeof RestApi.RestApi>

export class TestHost extends Context.Service<
  TestHost,
  {
    /** A path (`/api/v10/version`) or full URL through the whole app, as a socket would carry it. */
    readonly fetch: (pathOrUrl: string, init?: RequestInit) => Effect.Effect<Response>
    /** The same, as a plain async function for non-Effect test code and bot libraries. */
    readonly fetchPromise: (input: string | URL | Request, init?: RequestInit) => Promise<Response>
    /** A typed client for the API at `/api/v10`, sending the credential when given. */
    readonly client: (credential?: Credential) => Effect.Effect<Client>
    /** Moves the host's clock (token expiry, code lifetimes, rate-limit windows). */
    readonly adjustClock: (duration: Duration.Input) => Effect.Effect<void>
    /** Runs domain code inside the host (to arrange state a test needs, e.g. a session). */
    readonly run: <A, E>(effect: Effect.Effect<A, E, DomainServices>) => Effect.Effect<A, E>
    /**
     * The whole app (routes and edge) for a real HTTP server, e.g. `HttpServer.serveEffect(host.app)`
     * under a Node listener: what `fetch` cannot carry, such as the gateway's WebSocket upgrade.
     */
    readonly app: Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      unknown,
      HttpServerRequest.HttpServerRequest | Scope.Scope
    >
  }
>()("@veche/test-host/TestHost") {}

/** The domain services a test may use through `run`: the kit's, and what the host gives it. */
export type DomainServices = Veche.Services | Veche.Requirements

export interface Options {
  /** Which tokens are valid. Default: the sessions of the host's accounts domain. */
  readonly authenticator?:
    | Layer.Layer<
        Authenticator.Authenticator,
        never,
        Sessions.Sessions | Applications.Applications | OAuthTokens.OAuthTokens
      >
    | undefined
  /** `SERVICE_ENV` of the host (default `dev`: dev-only routes such as the outbox are on). */
  readonly env?: ServiceInfo.Environment | undefined
  /**
   * Carrier checks (mobile ID) with the dev adapter: codes arrive as 4-digit "calls" in the outbox,
   * and numbers ending in 00 refuse. Default off: codes go by SMS.
   */
  readonly carrierCheck?: boolean | undefined
  /** `down`: the delivery queue refuses every message (requests that send one answer 503). */
  readonly delivery?: "memory" | "down" | undefined
  /** `none`: no image storage connected (uploads answer 501). Default: in memory. */
  readonly mediaStorage?: "memory" | "none" | undefined
  /** Platform staff, by user id or phone (default: nobody). */
  readonly staff?: Partial<Staff.StaffList> | undefined
  /** Bucket sizes, routes and the global limit; default the production table. */
  readonly rateLimits?: Parameters<typeof RouteBuckets.RouteBuckets.layer>[0] | undefined
  /**
   * Every repository at once (e.g. `PgRepositories.layer` over a test schema). Default: memory.
   * All of them come from one layer so rows that refer to each other (accounts, users, guilds) meet.
   */
  readonly repositories?: Layer.Layer<Repositories> | undefined
  /** Where presence is kept (default: in memory, as one node without Redis). */
  readonly presence?: Layer.Layer<PresenceStore.PresenceStore> | undefined
  /** How identifies are limited (default: counted in memory with the platform's limits). */
  readonly identifyLimits?: Layer.Layer<IdentifyLimits.IdentifyLimits> | undefined
  /** How long a user stays online after their last session (default GatewayConfig's 5 s). */
  readonly presenceGraceMs?: number | undefined
  /** What `GET /gateway` answers and READY's `resume_gateway_url` (default GATEWAY_URL). */
  readonly gatewayUrl?: string | undefined
  /**
   * The payment provider (e.g. YooKassa's adapter pointed at `@veche/yookassa`'s fake). Default:
   * none connected (checkout answers 501).
   */
  readonly payments?: Layer.Layer<PaymentProvider.PaymentProvider> | undefined
  /** The gateway's other settings (e.g. a small `maxBufferedBytes` to test slow clients). */
  readonly gateway?: Partial<GatewayConfig.Settings> | undefined
  /** The GIF provider (default: the dev fixtures), e.g. KLIPY's adapter pointed at a local fake. */
  readonly gifProvider?: Layer.Layer<GifProvider.GifProvider> | undefined
  /** The GIF proxy's settings besides its customer-id key (`GIFS_CUSTOMER_KEY`): cache lifetimes, filter. */
  readonly gifs?: Partial<Omit<GifsConfig.Settings, "customerKey">> | undefined
  /**
   * Whether the edge answers the plainest endpoints from their compiled form, as the reference
   * server does (`CompiledAnswers`). Default on; off, every request is routed (to compare the two).
   */
  readonly compiledAnswers?: boolean | undefined
  /** Where the edge writes its access-log entries (default: no access log). */
  readonly accessLog?: AccessLog.Sink | undefined
  /** Origins the edge answers CORS for (default none). */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
}

/** The repository ports the host is built on: what `options.repositories` must provide. */
export type Repositories = Veche.Repositories

/** Every repository on memory (the default), fresh per build of the host. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Veche.layerMemoryRepositories

const LOOPBACK = Schema.decodeSync(TrustedProxies.NetworkList)("127.0.0.1/32")[0] as IpNetwork.IpNetwork

/**
 * Requests reach the app as if through a proxy on loopback, which the edge trusts: a test acts as
 * a client at any address by sending `X-Forwarded-For` (limits per address, country checks).
 */
const asLocalProxy = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.updateService(app, HttpServerRequest.HttpServerRequest, (request) =>
    request.modify({ remoteAddress: Option.some("127.0.0.1"), peerAddress: Option.some("127.0.0.1") })
  )

const make = Effect.fnUntraced(function* (options: Options) {
  // The API and the web pages its letters link to, as the reference server serves them.
  const compiledAnswers = CompiledAnswers.makeTable()
  const app = yield* HttpRouter.toHttpEffect(
    Layer.mergeAll(
      RestApp.routes,
      WebPages.layer(),
      options.compiledAnswers === false ? Layer.empty : CompiledAnswers.layer(compiledAnswers)
    )
  )
  // Flattened once, with room for a request's overlays: effect's `Context.add` keeps `maxDepth`
  // overlays (eight by default) and then copies the whole map, and this host's layers' overlays
  // plus a request's own (request, scope, proxy address, body limit, forwarded address, routed
  // request, search params, route) made every routed request copy every service here.
  const layered = yield* Effect.context<TestClock.TestClock | DomainServices>()
  const context = Context.makeUnsafe<TestClock.TestClock | DomainServices>(new Map(layered.mapUnsafe), {
    maxDepth: 16
  })
  const edge = HttpEdge.middleware({
    trustedProxies: [LOOPBACK],
    accessLog: options.accessLog ?? false,
    corsOrigins: options.corsOrigins,
    compiledAnswers
  })
  const handler = HttpEffect.toWebHandlerWith<TestClock.TestClock, Scope.Scope | HttpServerRequest.HttpServerRequest>(
    context
  )(app, (inner) => asLocalProxy(edge(inner)))

  const fetchPromise = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), BASE_URL), init)
    return handler(request)
  }
  const fetch = (pathOrUrl: string, init?: RequestInit) => Effect.promise(() => fetchPromise(pathOrUrl, init))

  const httpClient = Effect.map(Effect.service(HttpClient.HttpClient), (client) =>
    client.pipe(
      HttpClient.transformResponse(
        Effect.provideService(FetchHttpClient.Fetch, fetchPromise as typeof globalThis.fetch)
      )
    )
  ).pipe(Effect.provide(FetchHttpClient.layer))

  const client = (credential?: Credential) =>
    HttpApiClient.make(RestApi.RestApi, { baseUrl: `${BASE_URL}/api/v10` }).pipe(
      Effect.provide(
        HttpApiMiddleware.layerClient(Authorization.Authorization, ({ next, request }) =>
          next(
            credential === undefined
              ? request
              : HttpClientRequest.setHeader(request, "authorization", `${credential.scheme} ${credential.token}`)
          )
        )
      ),
      Effect.provideServiceEffect(HttpClient.HttpClient, httpClient)
    )

  const adjustClock = (duration: Duration.Input) => TestClock.adjust(duration).pipe(Effect.provideContext(context))

  const run = <A, E>(effect: Effect.Effect<A, E, DomainServices>) => Effect.provideContext(effect, context)

  // Requests from a real socket come from loopback already: the edge trusts it as a proxy.
  const served = edge(app)
  const appWithContext = Effect.updateContext(
    served,
    (requestContext: Context.Context<HttpServerRequest.HttpServerRequest | Scope.Scope>) =>
      // the host's services (its test clock among them) over whatever the listener's fiber carries
      Context.merge(requestContext, context)
  )

  return TestHost.of({ fetch, fetchPromise, client, adjustClock, run, app: appWithContext })
})

/** The GIF proxy's customer-id key: tests compute the customer id a provider must receive. */
export const GIFS_CUSTOMER_KEY = Redacted.make("veche-test-host-gifs-customer-key-0123456789")

/** A fixed code key: codes in tests are read from the outbox, never derived from it. */
const TEST_CODE_SECRET = Redacted.make("veche-test-host-code-secret-0123456789")

/** WebCrypto (no Node-only code in the host). */
const crypto = Layer.mergeAll(
  SecureRandom.layerWebCrypto,
  Digest.layerWebCrypto,
  Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
)

/** Where links in letters point. */
export const WEB_URL = "https://veche.test"

/** Two addresses the country check knows (as the real data set has them); everything else is unknown. */
export const COUNTRIES = { "77.88.55.242": "RU", "8.8.8.8": "US" } as const

/** The host's settings: a test version, the default session lifetimes, a fixed code key, staff from the options. */
const configuration = (options: Options) =>
  Layer.mergeAll(
    ServiceInfo.ServiceInfo.layer({ version: "0.0.0-test", env: options.env ?? "dev" }),
    Layer.orDie(GatewayUrl.GatewayUrl.layer(options.gatewayUrl ?? GATEWAY_URL)),
    GatewayConfig.GatewayConfig.layer({
      ...options.gateway,
      resumeGatewayUrl: options.gatewayUrl ?? GATEWAY_URL,
      ...(options.presenceGraceMs === undefined ? {} : { presenceGraceMs: options.presenceGraceMs })
    }),
    SessionsConfig.SessionsConfig.layer(),
    Staff.StaffConfig.layer({ userIds: options.staff?.userIds ?? [], phones: options.staff?.phones ?? [] }),
    WebLinks.WebLinks.layer(WEB_URL),
    VerificationCodes.VerificationCodes.layer(TEST_CODE_SECRET),
    SecretBox.SecretBox.layerEphemeral,
    Snowflake.SnowflakeGenerator.layer(0),
    GifsConfig.GifsConfig.layer({ ...options.gifs, customerKey: GIFS_CUSTOMER_KEY })
  )

/**
 * The dev providers: the dev captcha (any non-empty token), SMS and letters to the console and the
 * host's outbox through an in-memory delivery queue, the test country table, a cheap (still real)
 * password hash, and counters in this process (as the reference server keeps them without Redis),
 * all on the test clock.
 */
const providers = (options: Options) =>
  Layer.mergeAll(
    Captcha.Captcha.layerDev,
    SmsSender.SmsSender.layerConsole,
    Mailer.Mailer.layerConsole,
    options.delivery === "down" ? DeliveryStore.DeliveryStore.layerDown : DeliveryStore.DeliveryStore.layerMemory,
    options.carrierCheck === true ? CarrierCheck.CarrierCheck.layerDev : CarrierCheck.CarrierCheck.layerNone,
    GeoIp.GeoIp.layerTest(COUNTRIES),
    // images and export archives: memory, or nothing connected
    options.mediaStorage === "none" ? MediaStorage.MediaStorage.layerNone : MediaStorage.MediaStorage.layerMemory,
    SharpImageCodec.layer,
    Argon2PasswordHasher.layerTest,
    OtplibTotpCodes.layer,
    FflateZipWriter.layer,
    QuotaLimiter.QuotaLimiter.layerInProcess(),
    RouteLimiter.RouteLimiter.layerInProcess.pipe(Layer.provide(RouteBuckets.RouteBuckets.layer(options.rateLimits))),
    // the gateway's fan-out from the bus in this process, identify limits counted here
    DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory)),
    options.identifyLimits ?? IdentifyLimits.IdentifyLimits.layerMemory(),
    options.presence ?? PresenceStore.PresenceStore.layerMemory,
    // GIFs: the dev fixtures unless a test brings a provider; answers cached in this process
    options.gifProvider ?? DevGifProvider.layer,
    GifCache.GifCache.layerMemory(),
    // file system, paths and ETags for the docs page, as a real server has them
    HttpServer.layerServices,
    options.payments ?? PaymentProvider.PaymentProvider.layerNone
  ).pipe(
    // the recorded outbox: every code, link and letter the dev adapters send
    Layer.provideMerge(DevOutbox.DevOutbox.layerMemory)
  )

/** Everything the routes need, over memory repositories unless the caller supplies them. */
const services = (options: Options) =>
  (options.authenticator ?? SessionAuthenticator.layer).pipe(
    Layer.provideMerge(Layer.orDie(Veche.layer)),
    Layer.provideMerge(Layer.merge(configuration(options), providers(options))),
    Layer.provideMerge(crypto),
    // one layer for every repository, shared with tests through `run`
    Layer.provideMerge(options.repositories ?? layerMemoryRepositories)
  )

const clock = Layer.effectDiscard(TestClock.setTime(START_TIME)).pipe(Layer.provideMerge(TestClock.layer()))

export const layer = (options: Options = {}): Layer.Layer<TestHost> =>
  Layer.effect(TestHost, make(options)).pipe(Layer.provide(services(options)), Layer.provide(clock))
