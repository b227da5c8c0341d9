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
import { Argon2PasswordHasher } from "@veche/argon2"
import {
  AccountSnapshot,
  AccountsRepo,
  AuthFlows,
  BlocksRepo,
  EmailLinksRepo,
  MfaRepo,
  Moderation,
  RestrictionsRepo,
  SessionSweep,
  Sessions,
  SessionsConfig,
  SessionsRepo,
  Staff,
  Tokens,
  VerificationCodes,
  VerificationsRepo,
  WebLinks
} from "@veche/auth"
import { AccountStandings, GuildsDomain, GuildsRepo } from "@veche/guilds"
import { MediaStorage, ProfileImages } from "@veche/media"
import { OtplibTotpCodes } from "@veche/otplib"
import {
  Captcha,
  CarrierCheck,
  DeliveryQueue,
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
import { type AccountDeletion, type DataExports, DataExportsRepo, DeletionsRepo, PrivacyDomain } from "@veche/privacy"
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import {
  type Authenticator,
  Authorization,
  GatewayUrl,
  HttpEdge,
  RestApi,
  RestApp,
  SessionAuthenticator,
  TrustedProxies
} from "@veche/rest"
import { SharpImageCodec } from "@veche/sharp"
import { PersonalData, ProfilesRepo, RelationshipsRepo, UserPersonalData, UsersRepo } from "@veche/users"
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
  }
>()("@veche/test-host/TestHost") {}

/** The domain services a test may use through `run`. */
export type DomainServices =
  | AccountDeletion.AccountDeletion
  | DeletionsRepo.DeletionsRepo
  | Sessions.Sessions
  | SessionSweep.SessionSweep
  | UsersRepo.UsersRepo
  | Snowflake.SnowflakeGenerator
  | DevOutbox.DevOutbox
  | VerificationsRepo.VerificationsRepo
  | DeliveryQueue.DeliveryQueue
  | AccountsRepo.AccountsRepo
  | BlocksRepo.BlocksRepo
  | RestrictionsRepo.RestrictionsRepo
  | Moderation.Moderation
  | EventBus.EventBus
  | GuildsRepo.GuildsRepo
  | GuildsDomain.Services
  | DataExports.DataExports
  | RelationshipsRepo.RelationshipsRepo

export interface Options {
  /** Which tokens are valid. Default: the sessions of the host's accounts domain. */
  readonly authenticator?: Layer.Layer<Authenticator.Authenticator, never, Sessions.Sessions> | undefined
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
}

/** The repository ports the host is built on: what `options.repositories` must provide. */
export type Repositories =
  | UsersRepo.UsersRepo
  | AccountsRepo.AccountsRepo
  | SessionsRepo.SessionsRepo
  | VerificationsRepo.VerificationsRepo
  | MfaRepo.MfaRepo
  | EmailLinksRepo.EmailLinksRepo
  | BlocksRepo.BlocksRepo
  | RestrictionsRepo.RestrictionsRepo
  | ProfilesRepo.ProfilesRepo
  | DeletionsRepo.DeletionsRepo
  | DataExportsRepo.DataExportsRepo
  | RelationshipsRepo.RelationshipsRepo
  | AccountSnapshot.AccountSnapshots
  | GuildsRepo.GuildsRepo

/** Every repository on memory (the default), fresh per build of the host. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = AccountSnapshot.AccountSnapshots.layerFromRepos.pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      AccountsRepo.AccountsRepo.layerMemory,
      MfaRepo.MfaRepo.layerMemory,
      EmailLinksRepo.EmailLinksRepo.layerMemory,
      // sessions read password changes from the accounts beside them (the same layer, built once)
      SessionsRepo.SessionsRepo.layerMemory.pipe(Layer.provide(AccountsRepo.AccountsRepo.layerMemory)),
      VerificationsRepo.VerificationsRepo.layerMemory,
      RestrictionsRepo.RestrictionsRepo.layerMemory,
      DeletionsRepo.DeletionsRepo.layerMemory,
      DataExportsRepo.DataExportsRepo.layerMemory,
      GuildsRepo.GuildsRepo.layerMemory,
      ProfilesRepo.ProfilesRepo.layerMemory,
      RelationshipsRepo.RelationshipsRepo.layerMemory
    )
  ),
  // sessions read blocks, accounts read users: both shared with the rest of the host
  Layer.provideMerge(Layer.merge(BlocksRepo.BlocksRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))
)

const LOOPBACK = Schema.decodeSync(TrustedProxies.NetworkList)("127.0.0.1/32")[0] as IpNetwork.IpNetwork

/**
 * Requests reach the app as if through a proxy on loopback, which the edge trusts: a test acts as
 * a client at any address by sending `X-Forwarded-For` (limits per address, country checks).
 */
const asLocalProxy = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.updateService(app, HttpServerRequest.HttpServerRequest, (request) =>
    request.modify({ remoteAddress: Option.some("127.0.0.1"), peerAddress: Option.some("127.0.0.1") })
  )

const make = Effect.gen(function* () {
  const app = yield* HttpRouter.toHttpEffect(RestApp.routes)
  const context = yield* Effect.context<TestClock.TestClock | DomainServices>()
  const handler = HttpEffect.toWebHandlerWith<TestClock.TestClock, Scope.Scope | HttpServerRequest.HttpServerRequest>(
    context
  )(app, (inner) => asLocalProxy(HttpEdge.middleware({ trustedProxies: [LOOPBACK], accessLog: false })(inner)))

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

  return TestHost.of({ fetch, fetchPromise, client, adjustClock, run })
})

/** Tokens on WebCrypto (no Node-only code in the host). */
const tokens = Tokens.Tokens.layer.pipe(
  Layer.provide(Layer.mergeAll(SecureRandom.layerWebCrypto, Digest.layerWebCrypto))
)

/** Sessions over the host's repositories, and the worker that removes dead ones (as a server runs it). */
const accounts = Layer.merge(Sessions.Sessions.layer, SessionSweep.SessionSweep.layer).pipe(
  Layer.provide(SessionsConfig.SessionsConfig.layer())
)

/** A fixed code key: codes in tests are read from the outbox, never derived from it. */
const TEST_CODE_SECRET = Redacted.make("veche-test-host-code-secret-0123456789")

const crypto = Layer.mergeAll(
  SecureRandom.layerWebCrypto,
  Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))
)

/** Where links in letters point. */
export const WEB_URL = "https://veche.test"

/** Two addresses the country check knows (as the real data set has them); everything else is unknown. */
export const COUNTRIES = { "77.88.55.242": "RU", "8.8.8.8": "US" } as const

/** Quotas (password re-checks, exports a day), on the test clock; one instance, shared by reference. */
const quotas = QuotaLimiter.QuotaLimiter.layer().pipe(Layer.provide(RateLimitStore.layerMemory))

/**
 * The account flows over the host's repositories with the dev providers: the dev captcha (any
 * non-empty token), SMS and letters to the console and the host's outbox through an in-memory
 * delivery queue, and a cheap (still real) password hash.
 */
const registration = AuthFlows.layer.pipe(
  Layer.provide(
    Layer.mergeAll(
      VerificationCodes.VerificationCodes.layer(TEST_CODE_SECRET).pipe(Layer.provide(crypto)),
      SecretBox.SecretBox.layerEphemeral,
      Argon2PasswordHasher.layerTest,
      OtplibTotpCodes.layer,
      quotas,
      Captcha.Captcha.layerDev,
      SmsSender.SmsSender.layerConsole,
      WebLinks.WebLinks.layer(WEB_URL)
    )
  )
)

/** Where images and export archives go: memory, or nothing connected. */
const storageOf = (options: Options) =>
  options.mediaStorage === "none" ? MediaStorage.MediaStorage.layerNone : MediaStorage.MediaStorage.layerMemory

const carrierCheckOf = (options: Options) =>
  options.carrierCheck === true ? CarrierCheck.CarrierCheck.layerDev : CarrierCheck.CarrierCheck.layerNone

const deliveryOf = (options: Options) =>
  DeliveryQueue.DeliveryQueue.layer.pipe(
    Layer.provide(
      options.delivery === "down" ? DeliveryStore.DeliveryStore.layerDown : DeliveryStore.DeliveryStore.layerMemory
    ),
    Layer.provide(Layer.merge(SmsSender.SmsSender.layerConsole, Mailer.Mailer.layerConsole))
  )

/** Everything the routes need, over memory repositories unless the caller supplies them. */
const services = (options: Options) => {
  // the recorded outbox: every code, link and letter the dev adapters send
  const moderation = Moderation.Moderation.layer.pipe(
    Layer.provide(Staff.Staff.layer({ userIds: options.staff?.userIds ?? [], phones: options.staff?.phones ?? [] }))
  )
  // guilds; joining reads the account's standing from the accounts domain beside it
  const guilds = GuildsDomain.layer.pipe(
    // the same `moderation` value as below: layers are shared by reference within one build
    Layer.provide(AccountStandings.AccountStandings.layerFromAccounts.pipe(Layer.provide(moderation))),
    Layer.provide(SecureRandom.layerWebCrypto)
  )
  // deletion and data exports, over every domain's part of a user's data (and the archive's ZIP)
  const privacy = Layer.merge(
    PrivacyDomain.layer.pipe(Layer.provide(Layer.merge(FflateZipWriter.layer, quotas))),
    UserPersonalData.layer
  )
  const domain = privacy.pipe(
    Layer.provideMerge(Layer.mergeAll(registration, moderation)),
    Layer.provideMerge(guilds),
    Layer.provideMerge(carrierCheckOf(options)),
    // images for the routes and for account erasure (which deletes what the account showed)
    Layer.provideMerge(ProfileImages.ProfileImages.layer().pipe(Layer.provide(SharpImageCodec.layer))),
    Layer.provideMerge(storageOf(options)),
    Layer.provideMerge(deliveryOf(options)),
    Layer.provideMerge(
      Layer.mergeAll(
        accounts,
        EventBus.EventBus.layerMemory,
        DevOutbox.DevOutbox.layerMemory,
        GeoIp.GeoIp.layerTest(COUNTRIES)
      )
    ),
    Layer.provideMerge(tokens),
    // every domain registers its part of a user's personal data here
    Layer.provideMerge(PersonalData.PersonalData.layer),
    // one layer for every repository, shared with tests through `run`
    Layer.provideMerge(options.repositories ?? layerMemoryRepositories),
    Layer.provideMerge(Snowflake.SnowflakeGenerator.layer(0))
  )
  return Layer.mergeAll(
    ServiceInfo.ServiceInfo.layer({ version: "0.0.0-test", env: options.env ?? "dev" }),
    Layer.orDie(GatewayUrl.GatewayUrl.layer(GATEWAY_URL)),
    options.authenticator ?? SessionAuthenticator.layer,
    // counters in this process, as the reference server keeps them without Redis, on the test clock
    RouteLimiter.RouteLimiter.layerInProcess.pipe(Layer.provide(RouteBuckets.RouteBuckets.layer(options.rateLimits))),
    // file system, paths and ETags for the docs page, as a real server has them
    HttpServer.layerServices
  ).pipe(Layer.provideMerge(domain))
}

const clock = Layer.effectDiscard(TestClock.setTime(START_TIME)).pipe(Layer.provideMerge(TestClock.layer()))

export const layer = (options: Options = {}): Layer.Layer<TestHost> =>
  Layer.effect(TestHost, make).pipe(Layer.provide(services(options)), Layer.provide(clock))
