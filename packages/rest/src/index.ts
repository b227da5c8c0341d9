/**
 * @veche/rest: the REST API. `RestApi` is the contract (pure data: server, clients and OpenAPI derive
 * from it); `RestApp.routes` serves it; `HttpEdge.middleware` wraps it in every host.
 */
export * as AuthApi from "./AuthApi.ts"
export * as Authenticator from "./Authenticator.ts"
export * as Authorization from "./Authorization.ts"
export * as DevApi from "./DevApi.ts"
export * as FormBodyErrors from "./FormBodyErrors.ts"
export * as GatewayUrl from "./GatewayUrl.ts"
export * as HttpEdge from "./HttpEdge.ts"
export * as AuthHandlers from "./handlers/AuthHandlers.ts"
export * as DevHandlers from "./handlers/DevHandlers.ts"
export * as ServiceHandlers from "./handlers/ServiceHandlers.ts"
export * as UsersHandlers from "./handlers/UsersHandlers.ts"
export * as Principal from "./Principal.ts"
export * as RateLimit from "./RateLimit.ts"
export * as RestApi from "./RestApi.ts"
export * as RestApp from "./RestApp.ts"
export * as ServiceApi from "./ServiceApi.ts"
export * as SessionAuthenticator from "./SessionAuthenticator.ts"
export * as TrustedProxies from "./TrustedProxies.ts"
export * as UsersApi from "./UsersApi.ts"
