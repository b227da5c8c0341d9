/**
 * The OAuth provider over the domains below it (applications: clients and secrets; accounts: the
 * block check; guilds: adding a bot) and the accounts domain's WebLinks, whose base
 * (`SERVICE_WEB_URL`) gives the page a consent without a redirect URI ends on. Its part of a user's
 * personal data is registered here too (the applications they granted; erasure ends the grants).
 */
import type { Applications } from "@veche/applications"
import { type Sessions, WebLinks } from "@veche/auth"
import type { Guilds } from "@veche/guilds"
import { ConsentPages, OAuthDomain, OAuthPersonalData } from "@veche/oauth"
import type { Snowflake } from "@veche/platform"
import type { PersonalData } from "@veche/users"
import { type Config, Effect, Layer } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"

const consentPages = Layer.effect(
  ConsentPages.ConsentPages,
  Effect.map(Effect.service(WebLinks.WebLinks), (links) =>
    ConsentPages.ConsentPages.of({ authorized: links.oauthAuthorized })
  )
)

export const layer: Layer.Layer<
  OAuthDomain.Services,
  Config.ConfigError,
  | OAuthDomain.Repositories
  | WebLinks.WebLinks
  | Applications.Applications
  | Sessions.Sessions
  | Guilds.Guilds
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | Digest.Digest
  | PersonalData.PersonalData
> = Layer.merge(OAuthDomain.layer.pipe(Layer.provide(consentPages)), OAuthPersonalData.layer)
