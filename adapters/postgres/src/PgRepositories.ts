/**
 * Every domain's repositories on PostgreSQL, over one SqlClient: one `Pg<Domain>Repositories` line
 * per domain. Hosts provide PgDatabase underneath. The PostgreSQL route tests hand this layer to the
 * test host, whose memory list is the same domains' `layerMemoryRepositories`.
 */
import type { ApplicationsDomain } from "@veche/applications"
import type { AuthDomain } from "@veche/auth"
import type { BillingDomain } from "@veche/billing"
import type { DiscoveryDomain } from "@veche/discovery"
import type { GuildsDomain } from "@veche/guilds"
import type { MessagesDomain } from "@veche/messages"
import type { ModerationDomain } from "@veche/moderation"
import type { OAuthDomain } from "@veche/oauth"
import type { PrivacyDomain } from "@veche/privacy"
import type { UsersDomain } from "@veche/users"
import { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgApplicationsRepositories from "./PgApplicationsRepositories.ts"
import * as PgAuthRepositories from "./PgAuthRepositories.ts"
import * as PgBillingRepositories from "./PgBillingRepositories.ts"
import * as PgCredentialChanges from "./PgCredentialChanges.ts"
import * as PgDiscoveryRepositories from "./PgDiscoveryRepositories.ts"
import * as PgGuildsRepositories from "./PgGuildsRepositories.ts"
import * as PgMessagesRepo from "./PgMessagesRepo.ts"
import * as PgModerationRepositories from "./PgModerationRepositories.ts"
import * as PgOAuthRepositories from "./PgOAuthRepositories.ts"
import * as PgPrivacyRepositories from "./PgPrivacyRepositories.ts"
import * as PgTallies from "./PgTallies.ts"
import * as PgUsersRepositories from "./PgUsersRepositories.ts"

// the same list as `Veche.Repositories` in @veche/kit (this adapter does not depend on the kit)
export const layer: Layer.Layer<
  | UsersDomain.Repositories
  | AuthDomain.Repositories
  | GuildsDomain.Repositories
  | ModerationDomain.Repositories
  | PrivacyDomain.Repositories
  | ApplicationsDomain.Repositories
  | OAuthDomain.Repositories
  | DiscoveryDomain.Repositories
  | MessagesDomain.Repositories
  | BillingDomain.Repositories,
  never,
  SqlClient.SqlClient
> = Layer.mergeAll(
  PgUsersRepositories.layer,
  PgAuthRepositories.layer,
  PgGuildsRepositories.layer,
  PgModerationRepositories.layer,
  PgPrivacyRepositories.layer,
  PgApplicationsRepositories.layer,
  PgOAuthRepositories.layer,
  PgDiscoveryRepositories.layer,
  PgMessagesRepo.layer,
  PgBillingRepositories.layer,
  // the statistics' rollups: a platform port (not a repository requirement), see PgTallies
  PgTallies.layer,
  // word of revoked sessions and changed credentials, for the gateway: a platform port too
  PgCredentialChanges.layer
)
