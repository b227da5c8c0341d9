/**
 * @veche/oauth: the OAuth 2.0 provider (consent, authorization codes with PKCE, the token endpoint,
 * refresh rotation, revocation, OAuth access tokens). It answers the applications domain's
 * ClientGrants port (OAuthClientGrants).
 */
export * as Authorizations from "./Authorizations.ts"
export * as ConsentPages from "./ConsentPages.ts"
export * as OAuthClientGrants from "./OAuthClientGrants.ts"
export * as OAuthDomain from "./OAuthDomain.ts"
export * as OAuthErrors from "./OAuthErrors.ts"
export * as OAuthGrant from "./OAuthGrant.ts"
export * as OAuthPersonalData from "./OAuthPersonalData.ts"
export * as OAuthRepo from "./OAuthRepo.ts"
export * as OAuthSecrets from "./OAuthSecrets.ts"
export * as OAuthSweep from "./OAuthSweep.ts"
export * as OAuthTokens from "./OAuthTokens.ts"
