/**
 * The whole REST API as one HttpApi: groups by domain, a group's public routes apart from those
 * that take credentials (each group declares `Authorization` once). Pure data: the server, the
 * in-memory test host, the typed client and the OpenAPI document all derive from it.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { ApplicationsApi } from "./ApplicationsApi.ts"
import { AuthApi } from "./AuthApi.ts"
import { AuthPublicApi } from "./AuthPublicApi.ts"
import { BillingApi, BillingPublicApi } from "./BillingApi.ts"
import { BotGatewayApi } from "./BotGatewayApi.ts"
import { ChannelsApi } from "./ChannelsApi.ts"
import { DevApi } from "./DevApi.ts"
import { DiscoveryApi, DiscoveryPublicApi } from "./DiscoveryApi.ts"
import { ExportsApi } from "./ExportsApi.ts"
import { FormBodyErrors } from "./FormBodyErrors.ts"
import { GuildsApi } from "./GuildsApi.ts"
import { InvitesApi } from "./InvitesApi.ts"
import { MediaApi } from "./MediaApi.ts"
import { MembersApi } from "./MembersApi.ts"
import { MessagesApi } from "./MessagesApi.ts"
import { ModerationApi } from "./ModerationApi.ts"
import { OAuthApi, OAuthTokenApi } from "./OAuthApi.ts"
import { RateLimit } from "./RateLimit.ts"
import { RolesApi } from "./RolesApi.ts"
import { ServiceApi } from "./ServiceApi.ts"
import { UsersApi } from "./UsersApi.ts"

export const API_VERSION = "1.0.0-draft.1"

export class RestApi extends HttpApi.make("veche")
  .add(
    ServiceApi,
    BotGatewayApi,
    AuthPublicApi,
    AuthApi,
    UsersApi,
    ExportsApi,
    GuildsApi,
    MembersApi,
    RolesApi,
    ChannelsApi,
    MessagesApi,
    InvitesApi,
    ModerationApi,
    ApplicationsApi,
    OAuthApi,
    DiscoveryPublicApi,
    DiscoveryApi,
    BillingPublicApi,
    BillingApi,
    DevApi
  )
  // Declared on the API so every route documents (and clients decode) 50035/50109 and 429.
  // The first is innermost: rate limiting runs before request decoding and authentication.
  .middleware(FormBodyErrors)
  // After the decoding middleware, before the rate limits: the token routes read their own form
  // body and answer every refusal, a NUL or a wrong media type too, in RFC 6749's shape.
  .add(OAuthTokenApi)
  .middleware(RateLimit)
  // After the API-wide middleware: an image decodes nothing that can fail, and a page of fifty
  // avatars must not spend the viewer's API rate limit (the CDN of the mirrored platform is apart).
  .add(MediaApi)
  // Report every invalid field, not only the first.
  .annotate(HttpApi.ParseOptions, { errors: "all" })
  .annotateMerge(
    OpenApi.annotations({
      title: "Veche REST API",
      version: API_VERSION,
      description:
        "A community-chat platform API shaped like the mirrored platform's bot API v10. Base paths /api/v1, /api/v9 and /api/v10 are equivalent."
    })
  ) {}
