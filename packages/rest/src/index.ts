/**
 * @veche/rest: the REST API served. The contract (`RestApi`, its groups and the middleware tags) is
 * `@veche/api`; here are the handlers, the middleware implementations, `RestApp.routes` that serves
 * it and `HttpEdge.middleware` that wraps it in every host.
 */

export * as AccessLog from "./AccessLog.ts"
export * as Authenticator from "./Authenticator.ts"
export * as AuthorizationMiddleware from "./AuthorizationMiddleware.ts"
export * as CompiledAnswers from "./CompiledAnswers.ts"
export * as FormBodyErrorsMiddleware from "./FormBodyErrorsMiddleware.ts"
export * as GatewayAuthenticator from "./GatewayAuthenticator.ts"
export * as GatewayRoute from "./GatewayRoute.ts"
export * as GatewayUrl from "./GatewayUrl.ts"
export * as HttpEdge from "./HttpEdge.ts"
export * as AuthHandlers from "./handlers/AuthHandlers.ts"
export * as AuthPublicHandlers from "./handlers/AuthPublicHandlers.ts"
export * as BotGatewayHandlers from "./handlers/BotGatewayHandlers.ts"
export * as DevHandlers from "./handlers/DevHandlers.ts"
export * as ExportsHandlers from "./handlers/ExportsHandlers.ts"
export * as MediaHandlers from "./handlers/MediaHandlers.ts"
export * as ModerationHandlers from "./handlers/ModerationHandlers.ts"
export * as ServiceHandlers from "./handlers/ServiceHandlers.ts"
export * as UsersHandlers from "./handlers/UsersHandlers.ts"
export * as KnownTokens from "./KnownTokens.ts"
export * as NoStoreMiddleware from "./NoStoreMiddleware.ts"
export * as RateLimitMiddleware from "./RateLimitMiddleware.ts"
export * as RestApp from "./RestApp.ts"
export * as SessionAuthenticator from "./SessionAuthenticator.ts"
export * as TrustedProxies from "./TrustedProxies.ts"
