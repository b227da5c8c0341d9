/**
 * @veche/api: the REST API contract as data. `RestApi` and its groups, the request and response
 * schemas, the shared field rules (`Fields`) and the middleware tags (`Authorization`, `RateLimit`,
 * `FormBodyErrors`, `NoStore`). No handler and no implementation: a typed client or a documentation
 * tool loads it without the server. `@veche/rest` serves it.
 */

export * as ApplicationsApi from "./ApplicationsApi.ts"
export * as AuthApi from "./AuthApi.ts"
export * as Authorization from "./Authorization.ts"
export * as AuthPublicApi from "./AuthPublicApi.ts"
export * as BillingApi from "./BillingApi.ts"
export * as BotGatewayApi from "./BotGatewayApi.ts"
export * as ChannelsApi from "./ChannelsApi.ts"
export * as DevApi from "./DevApi.ts"
export * as DiscoveryApi from "./DiscoveryApi.ts"
export * as ExportsApi from "./ExportsApi.ts"
export * as Fields from "./Fields.ts"
export * as FormBodyErrors from "./FormBodyErrors.ts"
export * as GifsApi from "./GifsApi.ts"
export * as GuildRoutes from "./GuildRoutes.ts"
export * as GuildsApi from "./GuildsApi.ts"
export * as InvitesApi from "./InvitesApi.ts"
export * as MediaApi from "./MediaApi.ts"
export * as MembersApi from "./MembersApi.ts"
export * as MessagesApi from "./MessagesApi.ts"
export * as ModerationApi from "./ModerationApi.ts"
export * as NoStore from "./NoStore.ts"
export * as OAuthApi from "./OAuthApi.ts"
export * as Principal from "./Principal.ts"
export * as RateLimit from "./RateLimit.ts"
export * as RestApi from "./RestApi.ts"
export * as RolesApi from "./RolesApi.ts"
export * as ServiceApi from "./ServiceApi.ts"
export * as UsersApi from "./UsersApi.ts"
