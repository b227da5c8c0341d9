/**
 * The catalogue over the domains that answer its ports: guilds' records for what a card shows and
 * what publication checks, the invitation path's join for joining from the catalogue (the same
 * checks), the accounts domain for the owner's 2FA, moderation for who is staff and its audit log, and the gateway's
 * presence for how many members are online (the catalogue sorts by it).
 */

import { type AccountSnapshot, AuthAccountDetails } from "@veche/auth"
import {
  CatalogueAudit,
  CatalogueGuilds,
  CatalogueStaff,
  Discovery,
  DiscoveryConfig,
  DiscoveryDomain,
  OnlineCounts,
  OwnerTwoFactor
} from "@veche/discovery"
import { PresenceStore } from "@veche/gateway"
import { GuildsRepo, Invites } from "@veche/guilds"
import { AuditEntry, AuditLog, Staff } from "@veche/moderation"
import { type Snowflake, Spans } from "@veche/platform"
import { AccountDetails, PersonalData } from "@veche/users"
import { type Config, DateTime, Effect, Layer, Option } from "effect"

const catalogueGuilds = Layer.effect(
  CatalogueGuilds.CatalogueGuilds,
  Effect.gen(function* () {
    const repo = yield* GuildsRepo.GuildsRepo
    const invites = yield* Invites.Invites
    const card = Effect.fnUntraced(function* (guildId: Snowflake.Snowflake) {
      const guild = yield* repo.find(guildId)
      if (Option.isNone(guild)) return Option.none()
      return Option.some({ guild: guild.value, memberCount: yield* repo.memberCount(guildId) })
    })
    return CatalogueGuilds.CatalogueGuilds.of({
      find: Spans.fn("CatalogueGuilds.find")(function* (guildId) {
        const found = yield* card(guildId)
        if (Option.isNone(found)) return Option.none()
        const { guild, memberCount } = found.value
        const channels = yield* repo.channels(guildId)
        return Option.some({
          id: guild.id,
          name: guild.name,
          icon: guild.icon,
          banner: guild.banner,
          features: guild.features,
          memberCount,
          ownerId: guild.ownerId,
          verificationLevel: guild.verificationLevel,
          rulesChannelId: guild.rulesChannelId,
          createdAt: guild.createdAt,
          channelNames: channels.map((channel) => channel.name)
        })
      }),
      cards: Spans.fn("CatalogueGuilds.cards")(function* (guildIds) {
        const found = yield* Effect.forEach(guildIds, card, { concurrency: 8 })
        const cards = new Map<Snowflake.Snowflake, CatalogueGuilds.GuildCard>()
        for (const entry of found) {
          if (Option.isNone(entry)) continue
          const { guild, memberCount } = entry.value
          cards.set(guild.id, {
            id: guild.id,
            name: guild.name,
            icon: guild.icon,
            banner: guild.banner,
            features: guild.features,
            memberCount
          })
        }
        return cards
      }),
      memberCounts: (guildIds) => repo.memberCounts(guildIds),
      join: (userId, guildId) =>
        invites.joinOpen({ userId, bot: false }, guildId).pipe(
          Effect.map(({ joined }) => joined),
          Effect.mapError((refusal): CatalogueGuilds.JoinRefusal => {
            switch (refusal._tag) {
              case "BannedFromGuild":
                return "banned"
              case "AccountRestricted":
                return "restricted"
              case "VerificationRequired":
                return "verification"
              case "GuildLimitReached":
                return "guild_limit"
              case "NoSuchGuild":
                return "gone"
            }
          })
        )
    })
  })
)

const ownerTwoFactor = Layer.effect(
  OwnerTwoFactor.OwnerTwoFactor,
  Effect.map(Effect.service(AccountDetails.AccountDetails), (accounts) =>
    OwnerTwoFactor.OwnerTwoFactor.of({
      hasTwoFactor: (userId) =>
        Effect.map(
          accounts.read(userId),
          Option.exists((account) => account.mfaEnabled)
        )
    })
  )
).pipe(Layer.provide(AuthAccountDetails.layer))

const catalogueStaff = Layer.effect(
  CatalogueStaff.CatalogueStaff,
  Effect.map(Effect.service(Staff.Staff), (staff) => CatalogueStaff.CatalogueStaff.of({ isStaff: staff.isStaff }))
)

/** The catalogue's staff actions in moderation's audit log. */
const catalogueAudit = Layer.effect(
  CatalogueAudit.CatalogueAudit,
  Effect.map(Effect.service(AuditLog.AuditLog), (log) =>
    CatalogueAudit.CatalogueAudit.of({
      record: (action) =>
        Effect.asVoid(
          action.kind === "state"
            ? log.record({
                staffId: action.staffId,
                action: AuditEntry.ACTIONS.catalogueState,
                targetType: "guild",
                targetId: action.guildId,
                reason: action.reason,
                details: { state: action.state, previous: action.previous }
              })
            : log.record({
                staffId: action.staffId,
                action: AuditEntry.ACTIONS.catalogueWords,
                targetType: "catalogue",
                targetId: null,
                reason: null,
                details: { added: action.added, removed: action.removed }
              })
        )
    })
  )
)

/** Above the applications in the personal-data order (reports refer to the account). */
const DISCOVERY_LEVEL = PersonalData.GUILDS + 20

/** The catalogue's part of a user's personal data: their reports in the export; deletion forgets them. */
const personalData = PersonalData.register(
  Effect.map(Effect.service(Discovery.Discovery), (discovery) => ({
    name: "discovery",
    level: DISCOVERY_LEVEL,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(
        discovery.reportsBy(userId),
        // No file for a user who reported nothing.
        (reports): ReadonlyArray<PersonalData.Section> =>
          reports.length === 0
            ? []
            : [
                {
                  file: "catalogue-reports.json",
                  about: "the catalogue servers you reported",
                  content: reports.map((report) => ({
                    guild_id: report.guildId,
                    reason: report.reason,
                    created_at: DateTime.formatIso(report.createdAt)
                  }))
                }
              ]
      ),
    erase: (userId: Snowflake.Snowflake) => discovery.eraseReportsBy(userId)
  }))
)

/** Members shown online (present and not invisible), as the gateway's presence keeps them. */
const onlineCounts = Layer.effect(
  OnlineCounts.OnlineCounts,
  Effect.map(PresenceStore.PresenceStore, (presence) => OnlineCounts.OnlineCounts.of({ counts: presence.guildCounts }))
)

/** The `SERVICE_DISCOVERY_*` settings are read from the host's ConfigProvider. */
export const layer: Layer.Layer<
  DiscoveryDomain.Services,
  Config.ConfigError,
  | DiscoveryDomain.Repositories
  | GuildsRepo.GuildsRepo
  | Invites.Invites
  | Staff.Staff
  | AuditLog.AuditLog
  | AccountSnapshot.AccountSnapshots
  | PersonalData.PersonalData
  | PresenceStore.PresenceStore
> = Layer.provideMerge(personalData, DiscoveryDomain.layer).pipe(
  Layer.provide(
    Layer.mergeAll(
      catalogueGuilds,
      catalogueStaff,
      catalogueAudit,
      ownerTwoFactor,
      onlineCounts,
      DiscoveryConfig.DiscoveryConfig.layerConfig
    )
  )
)
