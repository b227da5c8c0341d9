/**
 * The staff statistics over the domains that answer their ports: guild names and member counts from
 * the guilds' records, the listed count from the catalogue's, users online now from the gateway's
 * presence (with the sampler keeping each day's peak), money from billing's payments and slots, and
 * the sources still to come answering zeros (voice, push, referrals, the SMS balance). When one of
 * those lands, its answer replaces the `layerNone` (or the zero) here.
 */
import { Billing } from "@veche/billing"
import { DiscoveryRepo } from "@veche/discovery"
import { PresenceStore } from "@veche/gateway"
import { GuildsRepo } from "@veche/guilds"
import { ModerationStats, OnlinePeaks, type Staff, StatsSources } from "@veche/moderation"
import type { Snowflake } from "@veche/platform"
import { Effect, Layer, Option } from "effect"

const statsGuilds = Layer.effect(
  StatsSources.StatsGuilds,
  Effect.gen(function* () {
    const guilds = yield* GuildsRepo.GuildsRepo
    const catalogue = yield* DiscoveryRepo.DiscoveryRepo
    return StatsSources.StatsGuilds.of({
      facts: Effect.fn("StatsGuilds.facts")(function* (guildIds) {
        const [found, members] = yield* Effect.all(
          [Effect.forEach(guildIds, (id) => guilds.find(id), { concurrency: 8 }), guilds.memberCounts(guildIds)],
          { concurrency: "unbounded" }
        )
        const facts = new Map<Snowflake.Snowflake, StatsSources.GuildFacts>()
        for (const guild of found) {
          if (Option.isNone(guild)) continue
          facts.set(guild.value.id, { name: guild.value.name, members: members.get(guild.value.id) ?? 0 })
        }
        return facts
      }),
      listed: catalogue.listedCount
    })
  })
)

const onlineNow = Layer.effect(
  StatsSources.OnlineNow,
  Effect.map(PresenceStore.PresenceStore, (presence) => StatsSources.OnlineNow.of({ now: presence.onlineCount }))
)

// Plus subscriptions and boost slots in force, and the roubles paid this Moscow month; no referrals
// or SMS balance yet
const moneyStats = Layer.effect(
  StatsSources.MoneyStats,
  Effect.map(Billing.Billing, (billing) =>
    StatsSources.MoneyStats.of({
      read: () =>
        Effect.map(billing.money, (money) => ({
          plus_active: money.plusActive,
          boosts: money.boosts,
          paid_month_rub: money.paidMonthRub,
          referrals_qualified: 0,
          referrals_week: 0,
          sms_balance: null
        }))
    })
  )
)

const sources = Layer.mergeAll(
  statsGuilds,
  onlineNow,
  StatsSources.VoiceStats.layerNone,
  moneyStats,
  StatsSources.PushUsers.layerNone
)

export const layer: Layer.Layer<
  ModerationStats.ModerationStats,
  never,
  GuildsRepo.GuildsRepo | DiscoveryRepo.DiscoveryRepo | Staff.Staff | PresenceStore.PresenceStore | Billing.Billing
> = Layer.merge(ModerationStats.ModerationStats.layer, OnlinePeaks.layer).pipe(Layer.provide(sources))
