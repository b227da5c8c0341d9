/**
 * The REST API as router routes: the HttpApi mounted at /api/v1 with /api/v9 and /api/v10 as
 * aliases, the OpenAPI document and docs page, and a fallback that answers unknown paths 404 and
 * known paths with the wrong method 405 (the framework would answer both with an empty 404).
 * Hosts serve these routes behind `HttpEdge.middleware`.
 */

import { Authorization, FormBodyErrors, NoStore, RateLimit, RestApi } from "@veche/api"
import { Applications } from "@veche/applications"
import {
  EmailBinding,
  EmailConfirmation,
  Login,
  Mfa,
  PhoneChange,
  PhoneChecks,
  Recovery,
  Registration,
  Sessions
} from "@veche/auth"
import { Billing } from "@veche/billing"
import { Discovery } from "@veche/discovery"
import { ErrorBody } from "@veche/errors"
import { Gateway, PresenceStore } from "@veche/gateway"
import { Gifs } from "@veche/gifs"
import { Channels, GuildPremium, GuildSnapshots, Guilds, Invites, Members, Roles } from "@veche/guilds"
import { ProfileImages } from "@veche/media"
import { Messages } from "@veche/messages"
import { AuditLog, Moderation, ModerationStats } from "@veche/moderation"
import { Authorizations, OAuthTokens } from "@veche/oauth"
import { DeliveryQueue, DevOutbox, GeoIp, ServiceInfo } from "@veche/platform"
import { AccountDeletion, DataExports } from "@veche/privacy"
import { RouteLimiter } from "@veche/ratelimit"
import { CurrentUser, Profiles, PublicUsers, Relationships } from "@veche/users"
import { ByteSize, Context, Effect, type FileSystem, Layer, type Path, Scope } from "effect"
import {
  type Etag,
  FindMyWay,
  type HttpPlatform,
  HttpRouter,
  HttpServerRequest,
  HttpServerRespondable,
  HttpServerResponse
} from "effect/http"
import { HttpApi, HttpApiBuilder, type HttpApiGroup, HttpApiScalar, OpenApi } from "effect/http-api"
import { Authenticator } from "./Authenticator.ts"
import * as AuthorizationMiddleware from "./AuthorizationMiddleware.ts"
import * as FormBodyErrorsMiddleware from "./FormBodyErrorsMiddleware.ts"
import * as GatewayRoute from "./GatewayRoute.ts"
import { GatewayUrl } from "./GatewayUrl.ts"
import * as HttpEdge from "./HttpEdge.ts"
import * as ApplicationsHandlers from "./handlers/ApplicationsHandlers.ts"
import * as AuthHandlers from "./handlers/AuthHandlers.ts"
import * as AuthPublicHandlers from "./handlers/AuthPublicHandlers.ts"
import * as BillingHandlers from "./handlers/BillingHandlers.ts"
import * as BotGatewayHandlers from "./handlers/BotGatewayHandlers.ts"
import * as ChannelsHandlers from "./handlers/ChannelsHandlers.ts"
import * as DevHandlers from "./handlers/DevHandlers.ts"
import * as DiscoveryHandlers from "./handlers/DiscoveryHandlers.ts"
import * as ExportsHandlers from "./handlers/ExportsHandlers.ts"
import * as GifsHandlers from "./handlers/GifsHandlers.ts"
import * as GuildsHandlers from "./handlers/GuildsHandlers.ts"
import * as InvitesHandlers from "./handlers/InvitesHandlers.ts"
import * as MediaHandlers from "./handlers/MediaHandlers.ts"
import * as MembersHandlers from "./handlers/MembersHandlers.ts"
import * as MessagesHandlers from "./handlers/MessagesHandlers.ts"
import * as ModerationHandlers from "./handlers/ModerationHandlers.ts"
import * as OAuthHandlers from "./handlers/OAuthHandlers.ts"
import * as OAuthTokenHandlers from "./handlers/OAuthTokenHandlers.ts"
import * as RolesHandlers from "./handlers/RolesHandlers.ts"
import * as ServiceHandlers from "./handlers/ServiceHandlers.ts"
import * as UsersHandlers from "./handlers/UsersHandlers.ts"
import { isolated } from "./IsolatedGroup.ts"
import * as KnownTokens from "./KnownTokens.ts"
import * as NoStoreMiddleware from "./NoStoreMiddleware.ts"
import * as RateLimitMiddleware from "./RateLimitMiddleware.ts"

/**
 * Largest request body read (1 MiB; larger answers 413 40005). `HttpEdge.middleware` sets it per
 * request (image routes get more); this layer is for hosts that serve the routes without the edge.
 */
export const MAX_BODY_BYTES = HttpEdge.MAX_BODY_BYTES
export const bodyLimit: Layer.Layer<never> = Layer.succeed(
  HttpServerRequest.MaxBodySize,
  ByteSize.bytes(MAX_BODY_BYTES)
)

export const BASE_PATH = "/api/v1"
export const PREFIXES = [BASE_PATH, "/api/v9", "/api/v10"] as const
export const OPENAPI_PATH = `${BASE_PATH}/openapi.json`
export const DOCS_PATH = `${BASE_PATH}/docs`

/** What the routes need from the host: the domain services behind the handlers. */
export const services = [
  ServiceInfo.ServiceInfo,
  GatewayUrl,
  Gateway.Gateway,
  Authenticator,
  RouteLimiter.RouteLimiter,
  Sessions.Sessions,
  Registration.Registration,
  PhoneChecks.PhoneChecks,
  Login.Login,
  Mfa.Mfa,
  Recovery.Recovery,
  Moderation.Moderation,
  AuditLog.AuditLog,
  ModerationStats.ModerationStats,
  EmailConfirmation.EmailConfirmation,
  GeoIp.GeoIp,
  CurrentUser.CurrentUser,
  Profiles.Profiles,
  Relationships.Relationships,
  EmailBinding.EmailBinding,
  PhoneChange.PhoneChange,
  AccountDeletion.AccountDeletion,
  DataExports.DataExports,
  ProfileImages.ProfileImages,
  DevOutbox.DevOutbox,
  DeliveryQueue.DeliveryQueue,
  Guilds.Guilds,
  Members.Members,
  Roles.Roles,
  Channels.Channels,
  Invites.Invites,
  Messages.Messages,
  Applications.Applications,
  Authorizations.Authorizations,
  OAuthTokens.OAuthTokens,
  Discovery.Discovery,
  Gifs.Gifs,
  GuildSnapshots.GuildSnapshots,
  PublicUsers.PublicUsers,
  PresenceStore.PresenceStore,
  Billing.Billing,
  GuildPremium.GuildPremium
] as const

export type Services = Context.Service.Identifier<(typeof services)[number]>

/**
 * Exactly `Services` out of whatever the host's domain layer offers. Give the routes their
 * services through it (`Layer.provide(RestApp.onlyServices.pipe(Layer.provide(domain)))`): every
 * request copies the context its handlers were built in, so each service in view costs every
 * request (300 of them cut a small route's throughput to a quarter here).
 */
export const onlyServices: Layer.Layer<Services, never, Services> = Layer.effectContext(
  Effect.map(Effect.context<Services>(), Context.pick(...services))
)

/** The API-wide middleware: every group sees it. */
const MIDDLEWARE = [Authorization.Authorization, FormBodyErrors.FormBodyErrors, RateLimit.RateLimit] as const

/**
 * Every handler group, with the API-wide middleware they need. Each group is built seeing only the
 * services it names (`isolated`: each request copies what its group can see).
 */
export const handlers: Layer.Layer<
  | Authorization.Authorization
  | FormBodyErrors.FormBodyErrors
  | RateLimit.RateLimit
  | NoStore.NoStore
  | HttpApiGroup.Service<"veche", "service">
  | HttpApiGroup.Service<"veche", "botGateway">
  | HttpApiGroup.Service<"veche", "authPublic">
  | HttpApiGroup.Service<"veche", "auth">
  | HttpApiGroup.Service<"veche", "users">
  | HttpApiGroup.Service<"veche", "exports">
  | HttpApiGroup.Service<"veche", "guilds">
  | HttpApiGroup.Service<"veche", "members">
  | HttpApiGroup.Service<"veche", "roles">
  | HttpApiGroup.Service<"veche", "channels">
  | HttpApiGroup.Service<"veche", "messages">
  | HttpApiGroup.Service<"veche", "invites">
  | HttpApiGroup.Service<"veche", "moderation">
  | HttpApiGroup.Service<"veche", "applications">
  | HttpApiGroup.Service<"veche", "oauth">
  | HttpApiGroup.Service<"veche", "oauthToken">
  | HttpApiGroup.Service<"veche", "discoveryPublic">
  | HttpApiGroup.Service<"veche", "discovery">
  | HttpApiGroup.Service<"veche", "billingPublic">
  | HttpApiGroup.Service<"veche", "billing">
  | HttpApiGroup.Service<"veche", "gifs">
  | HttpApiGroup.Service<"veche", "media">
  | HttpApiGroup.Service<"veche", "dev">,
  never,
  Services
> = Layer.mergeAll(
  isolated(ServiceHandlers.layer, [ServiceInfo.ServiceInfo, GatewayUrl, ...MIDDLEWARE]),
  isolated(BotGatewayHandlers.layer, [GatewayUrl, Gateway.Gateway, ...MIDDLEWARE]),
  isolated(AuthPublicHandlers.layer, [
    GeoIp.GeoIp,
    Sessions.Sessions,
    EmailConfirmation.EmailConfirmation,
    Login.Login,
    PhoneChecks.PhoneChecks,
    Recovery.Recovery,
    Registration.Registration,
    NoStore.NoStore,
    ...MIDDLEWARE
  ]),
  isolated(AuthHandlers.layer, [Sessions.Sessions, Mfa.Mfa, NoStore.NoStore, ...MIDDLEWARE]),
  isolated(UsersHandlers.layer, [
    CurrentUser.CurrentUser,
    Profiles.Profiles,
    Relationships.Relationships,
    AccountDeletion.AccountDeletion,
    DataExports.DataExports,
    EmailBinding.EmailBinding,
    PhoneChange.PhoneChange,
    ...MIDDLEWARE
  ]),
  isolated(ExportsHandlers.layer, [DataExports.DataExports, ...MIDDLEWARE]),
  isolated(GuildsHandlers.layer, [
    ProfileImages.ProfileImages,
    Guilds.Guilds,
    Members.Members,
    PresenceStore.PresenceStore,
    GuildPremium.GuildPremium,
    ...MIDDLEWARE
  ]),
  isolated(MembersHandlers.layer, [Members.Members, ...MIDDLEWARE]),
  isolated(RolesHandlers.layer, [Roles.Roles, ...MIDDLEWARE]),
  isolated(ChannelsHandlers.layer, [Channels.Channels, Invites.Invites, ...MIDDLEWARE]),
  isolated(MessagesHandlers.layer, [Messages.Messages, ...MIDDLEWARE]),
  isolated(InvitesHandlers.layer, [Invites.Invites, PresenceStore.PresenceStore, ...MIDDLEWARE]),
  isolated(ModerationHandlers.layer, [
    Moderation.Moderation,
    AuditLog.AuditLog,
    ModerationStats.ModerationStats,
    ...MIDDLEWARE
  ]),
  isolated(ApplicationsHandlers.layer, [
    Applications.Applications,
    PublicUsers.PublicUsers,
    NoStore.NoStore,
    ...MIDDLEWARE
  ]),
  isolated(OAuthHandlers.layer, [
    Authorizations.Authorizations,
    PublicUsers.PublicUsers,
    NoStore.NoStore,
    ...MIDDLEWARE
  ]),
  isolated(OAuthTokenHandlers.layer, [OAuthTokens.OAuthTokens, ...MIDDLEWARE]),
  isolated(DiscoveryHandlers.layerPublic, [Discovery.Discovery, ...MIDDLEWARE]),
  isolated(DiscoveryHandlers.layer, [Discovery.Discovery, GuildSnapshots.GuildSnapshots, ...MIDDLEWARE]),
  isolated(BillingHandlers.layerPublic, [Billing.Billing, ...MIDDLEWARE]),
  isolated(BillingHandlers.layer, [Billing.Billing, ...MIDDLEWARE]),
  isolated(GifsHandlers.layer, [Gifs.Gifs, ...MIDDLEWARE]),
  isolated(MediaHandlers.layer, [ProfileImages.ProfileImages, ...MIDDLEWARE]),
  isolated(DevHandlers.layer, [
    DevOutbox.DevOutbox,
    DeliveryQueue.DeliveryQueue,
    ServiceInfo.ServiceInfo,
    ...MIDDLEWARE
  ])
).pipe(
  // provideMerge: in-process test clients resolve middleware from the same context
  Layer.provideMerge(
    // one KnownTokens for both: Authorization tells it which headers authenticated, RateLimit asks it
    Layer.mergeAll(
      AuthorizationMiddleware.layer,
      FormBodyErrorsMiddleware.layer,
      RateLimitMiddleware.layer,
      NoStoreMiddleware.layer
    ).pipe(Layer.provide(KnownTokens.KnownTokens.layer))
  )
)

const mountAt = (prefix: string) =>
  HttpApiBuilder.layer(RestApi.RestApi).pipe(
    Layer.provide(
      Layer.effect(
        HttpRouter.HttpRouter,
        Effect.map(HttpRouter.HttpRouter, (r) => r.prefixed(prefix))
      )
    )
  )

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const

const knownRoutes = (() => {
  const router = FindMyWay.make<true>()
  HttpApi.reflect(RestApi.RestApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      for (const prefix of PREFIXES) router.on(endpoint.method, `${prefix}${endpoint.path}`, true)
    }
  })
  return router
})()

/** Only reached when no route matched: 405 with `Allow` when the path exists under another method. */
const Fallback = HttpRouter.add("*", "*", (request) => {
  const path = request.url.split("?")[0] ?? "/"
  const allowed = METHODS.filter((method) => knownRoutes.find(method, path) !== undefined)
  if (allowed.length === 0)
    return Effect.succeed(HttpServerResponse.jsonUnsafe(ErrorBody.general(404), { status: 404 }))
  return Effect.succeed(
    HttpServerResponse.jsonUnsafe(ErrorBody.general(405), { status: 405, headers: { allow: allowed.join(", ") } })
  )
})

const documentedApi = RestApi.RestApi.prefix(BASE_PATH)

/**
 * The docs page shares its origin with the web pages (the consent page, the staff panel), whose
 * sessions sit in the tab's sessionStorage: it may not be framed (clickjacking), sniffed or leak its
 * address. Its scripts stay unrestricted (Scalar's page is one inline script of 3 MB).
 */
const DOCS_HEADERS = {
  "content-security-policy": "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin"
}

/**
 * The OpenAPI document and the docs page, each made at its first request. Scalar's page inlines a
 * 3 MB script that `HttpApiScalar.layer` loads when it is built; made at start, it and the document
 * held 11 MB of an idle server's 161 (measured), for pages people seldom open.
 */
const Docs = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const openApi = yield* Effect.cached(
      Effect.sync(() => HttpServerResponse.jsonUnsafe(OpenApi.fromApi(documentedApi)))
    )
    // Scalar's own route in a router of its own, built once in this layer's scope.
    const page = yield* Effect.cached(
      HttpRouter.toHttpEffect(HttpApiScalar.layer(documentedApi, { path: DOCS_PATH })).pipe(Scope.provide(scope))
    )
    yield* router.add("GET", OPENAPI_PATH, openApi)
    yield* router.add(
      "GET",
      DOCS_PATH,
      // Its router answers as any router would (its only route matches this path).
      Effect.flatMap(page, Effect.scoped).pipe(
        Effect.catch(HttpServerRespondable.toResponse),
        Effect.map(HttpServerResponse.setHeaders(DOCS_HEADERS))
      )
    )
  })
)

/**
 * All routes. Needs what the handlers need (ServiceInfo, GatewayUrl, Authenticator, RouteLimiter)
 * and a router.
 */
export const routes: Layer.Layer<
  never,
  never,
  | Services
  | HttpRouter.HttpRouter
  // the docs page's file serving
  | Etag.Generator
  | FileSystem.FileSystem
  | HttpPlatform.HttpPlatform
  | Path.Path
> = Layer.mergeAll(
  mountAt(PREFIXES[0]),
  mountAt(PREFIXES[1]),
  mountAt(PREFIXES[2]),
  Fallback,
  Docs,
  // the WebSocket gateway on the same port (GET /gateway answers GatewayUrl's URL)
  GatewayRoute.route
).pipe(Layer.provide(handlers))
