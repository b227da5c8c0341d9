/**
 * The OAuth provider as one layer: the consent step (Authorizations) and the token endpoint
 * (OAuthTokens) over its store and secrets. Hosts supply the repository, the id generator, where
 * the consent ends without a redirect (ConsentPages), and the domains below it: applications
 * (clients and their secrets), accounts (the block check), guilds (adding a bot).
 * `OAuthClientGrants.layer` answers the applications domain's ClientGrants port from the same store.
 */
import type { Applications } from "@veche/applications"
import type { Sessions } from "@veche/auth"
import type { Guilds } from "@veche/guilds"
import type { Snowflake } from "@veche/platform"
import { type Config, Layer } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"
import { Authorizations } from "./Authorizations.ts"
import type { ConsentPages } from "./ConsentPages.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { OAuthSecrets } from "./OAuthSecrets.ts"
import { OAuthSweep } from "./OAuthSweep.ts"
import { OAuthTokens } from "./OAuthTokens.ts"

export type Services = Authorizations | OAuthTokens | OAuthSweep

/** The domain's repository ports (PostgreSQL: `PgOAuthRepo`). */
export type Repositories = OAuthRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = OAuthRepo.layerMemory

/** `SERVICE_OAUTH_SWEEP_INTERVAL` (1 hour) is read from the host's ConfigProvider. */
export const layer: Layer.Layer<
  Services,
  Config.ConfigError,
  | Repositories
  | ConsentPages
  | Applications.Applications
  | Sessions.Sessions
  | Guilds.Guilds
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | Digest.Digest
> = Layer.mergeAll(Authorizations.layer, OAuthTokens.layer, OAuthSweep.layerConfig).pipe(
  Layer.provide(OAuthSecrets.layer)
)
