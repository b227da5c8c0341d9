/**
 * Every domain's repository ports, and all of them in memory: one line per domain in each. A host
 * answers them at once (`PgRepositories.layer` from @veche/postgres is the same list on PostgreSQL).
 */
import { ApplicationsDomain } from "@veche/applications"
import { AuthDomain } from "@veche/auth"
import { BillingDomain } from "@veche/billing"
import { DiscoveryDomain } from "@veche/discovery"
import { GuildsDomain } from "@veche/guilds"
import { MessagesDomain } from "@veche/messages"
import { ModerationDomain, SanctionBlocks } from "@veche/moderation"
import { OAuthDomain } from "@veche/oauth"
import { PrivacyDomain } from "@veche/privacy"
import { UserRecords, UsersDomain } from "@veche/users"
import { Layer } from "effect"

export type Repositories =
  | UsersDomain.Repositories
  | AuthDomain.Repositories
  | GuildsDomain.Repositories
  | ModerationDomain.Repositories
  | PrivacyDomain.Repositories
  | ApplicationsDomain.Repositories
  | OAuthDomain.Repositories
  | DiscoveryDomain.Repositories
  | MessagesDomain.Repositories
  | BillingDomain.Repositories

/**
 * Every repository in memory, fresh per build. The domains' memory stores that read each other
 * (accounts and snapshots write and read users and profiles through the users domain's
 * UserRecords, over the users' memory stores below; sessions read blocks through auth's
 * AccountBlocks port, answered over the moderation store) get the one store below them.
 */
export const layerMemoryRepositories: Layer.Layer<Repositories> = Layer.mergeAll(
  AuthDomain.layerMemoryRepositories.pipe(
    Layer.provide(Layer.merge(SanctionBlocks.layer, UserRecords.UserRecords.layer))
  ),
  GuildsDomain.layerMemoryRepositories,
  PrivacyDomain.layerMemoryRepositories,
  ApplicationsDomain.layerMemoryRepositories,
  OAuthDomain.layerMemoryRepositories,
  DiscoveryDomain.layerMemoryRepositories,
  MessagesDomain.layerMemoryRepositories,
  BillingDomain.layerMemoryRepositories
).pipe(
  Layer.provideMerge(ModerationDomain.layerMemoryRepositories),
  Layer.provideMerge(UsersDomain.layerMemoryRepositories)
)
