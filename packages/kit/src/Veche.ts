/**
 * Every domain composed once, with the wiring between them, over storage, providers and
 * configuration the host chooses. A host (server, test host, an integrator's process) provides
 * `Requirements` under `layer` and serves `RestApp.routes` over the result:
 *
 *   Veche.layer.pipe(Layer.provideMerge(myRepositories), Layer.provideMerge(myProviders), ...)
 *
 * Adding a domain: its `<Domain>Domain.layer` as one line in the stack below (above the domains
 * it reads, below those reading it), its `Services` and `Repositories` in the unions.
 */
import type { ApplicationsDomain } from "@veche/applications"
import { AccountLookup, AuthDomain } from "@veche/auth"
import type { BillingDomain } from "@veche/billing"
import type { DiscoveryDomain } from "@veche/discovery"
import { Gateway, type Presence, type Sessions } from "@veche/gateway"
import type { GifsDomain } from "@veche/gifs"
import { ChannelContents, GuildsDomain } from "@veche/guilds"
import { ProfileImages } from "@veche/media"
import type { MessagesDomain } from "@veche/messages"
import { ModerationDomain, type ModerationStats } from "@veche/moderation"
import type { OAuthDomain } from "@veche/oauth"
import { DeliveryQueue } from "@veche/platform"
import { PrivacyDomain } from "@veche/privacy"
import { type Authenticator, GatewayAuthenticator, SessionAuthenticator } from "@veche/rest"
import { PersonalData, UsersDomain } from "@veche/users"
import { type Config, Layer } from "effect"
import * as ApplicationsOnDomains from "./ApplicationsOnDomains.ts"
import * as BillingOnDomains from "./BillingOnDomains.ts"
import type { Configuration } from "./Configuration.ts"
import * as DiscoveryOnDomains from "./DiscoveryOnDomains.ts"
import * as GifsOnDomains from "./GifsOnDomains.ts"
import * as MessagesOnDomains from "./MessagesOnDomains.ts"
import * as ModerationStatsOnDomains from "./ModerationStatsOnDomains.ts"
import * as OAuthOnDomains from "./OAuthOnDomains.ts"
import * as PrivacyOnDomains from "./PrivacyOnDomains.ts"
import type { Providers } from "./Providers.ts"
import type { Repositories } from "./Repositories.ts"
import * as UsersOnAccounts from "./UsersOnAccounts.ts"

export type { Configuration } from "./Configuration.ts"
export { layerDevProviders } from "./DevProviders.ts"
export type { Providers } from "./Providers.ts"
export { layerMemoryRepositories, type Repositories } from "./Repositories.ts"

/** What the kit builds. */
export type Services =
  | Gateway.Gateway
  | Sessions.Sessions
  | Presence.Presence
  | Authenticator.Authenticator
  | AuthDomain.Services
  | UsersDomain.Services
  | GuildsDomain.Services
  | ModerationDomain.Services
  | ModerationStats.ModerationStats
  | PrivacyDomain.Services
  | ApplicationsDomain.Services
  | OAuthDomain.Services
  | DiscoveryDomain.Services
  | GifsDomain.Services
  | MessagesDomain.Services
  | BillingDomain.Services
  | ProfileImages.ProfileImages
  | DeliveryQueue.DeliveryQueue

/**
 * What the host provides. With `Services` it is everything `RestApp.routes` needs (some providers
 * and settings, e.g. GeoIp, RouteLimiter, GatewayUrl, only the routes read).
 */
export type Requirements = Repositories | Providers | Configuration

/**
 * The stack, top to bottom: each line sees the lines below it. `SERVICE_MEDIA_CONCURRENCY` (uploads
 * processed at once) is read from the host's ConfigProvider.
 */
export const layer: Layer.Layer<Services, Config.ConfigError, Requirements> = Gateway.Gateway.layerWithSessions.pipe(
  // the gateway: identifies through the same Authenticator as the routes, reads users and guilds
  Layer.provide(GatewayAuthenticator.layer),
  Layer.provideMerge(SessionAuthenticator.layer),
  // deletion and export: above every domain, reaching each through its part of PersonalData
  Layer.provideMerge(PrivacyDomain.layer),
  // the OAuth provider (the Authenticator above asks it for OAuth access tokens), over applications
  Layer.provideMerge(OAuthOnDomains.layer),
  // developer applications and their bots (the Authenticator above asks it for bot tokens); their
  // ports answered by the accounts, users and guilds domains below
  Layer.provideMerge(ApplicationsOnDomains.layer),
  // the staff statistics: the rollups every domain keeps (Tallies), guild names and member counts,
  // the catalogue's listed count, and zeros for the sources still to come
  Layer.provideMerge(ModerationStatsOnDomains.layer),
  // the public catalogue: it reads guilds and joins users through the guilds domain below, and asks
  // the accounts domain whether an owner has 2FA
  Layer.provideMerge(DiscoveryOnDomains.layer),
  // the GIF proxy: a viewer's locale from the users domain, their age from the accounts domain
  Layer.provideMerge(GifsOnDomains.layer),
  // messages in guild text channels: above the guilds (it asks Channels where a caller stands) and
  // the accounts (AccountLookup: birth date and verification), beside the applications
  Layer.provideMerge(MessagesOnDomains.layer),
  // Plus and boosts: it asks the guilds below who is a member and moderation who is staff; the
  // payment provider is the host's
  Layer.provideMerge(BillingOnDomains.layer),
  // accounts: sessions (the routes' tokens), the account flows (they read servers a user is in)
  Layer.provideMerge(AuthDomain.layer),
  // users: above guilds, so its services may ask them the servers a user is in (Memberships); its
  // other ports answered by the accounts domain and media
  Layer.provideMerge(UsersOnAccounts.layer),
  // the guild object's premium_tier from billing's boost slots (GuildPremium; tier 0 by default);
  // what Plus unlocks (the guild cap here, banner and animated avatar for users above) from
  // billing's entitlements (free by default); who waits for their deletion from privacy's requests
  // (PendingDeletions: never handed a guild)
  Layer.provideMerge(
    GuildsDomain.layer.pipe(
      Layer.provideMerge(
        Layer.mergeAll(
          BillingOnDomains.guildPremium,
          BillingOnDomains.entitlementPorts,
          PrivacyOnDomains.pendingDeletions
        )
      )
    )
  ),
  // staff moderation: below the domains that ask it through their ports (auth's AccountBlocks, guilds'
  // AccountStandings); it reads who is staff and the lookups below, and an account's Plus and boost
  // slots from billing's store (AccountBilling; none by default)
  Layer.provideMerge(ModerationDomain.layer.pipe(Layer.provide(BillingOnDomains.accountBilling))),
  // what the domains below auth and users read of them, over their repositories alone: users as
  // everybody sees them (guilds, moderation), an account's phone and verification (moderation)
  Layer.provideMerge(Layer.merge(UsersDomain.layerDirectory, AccountLookup.AccountLookup.layer)),
  // shared by the domains: outgoing SMS and mail (sent by this node's worker), profile images, and
  // the registry every domain's part of a user's personal data registers in
  Layer.provideMerge(
    Layer.mergeAll(
      DeliveryQueue.DeliveryQueue.layer,
      ProfileImages.ProfileImages.layerConfig,
      PersonalData.PersonalData.layer,
      // what domains above the guilds keep in channels (messages), removed with them
      ChannelContents.ChannelContents.layer
    )
  )
)
