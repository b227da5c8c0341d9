/**
 * The staff statistics over the domains that answer their ports: guild names and member counts from
 * the guilds' records, the listed count from the catalogue's, users online now from the gateway's
 * presence (with the sampler keeping each day's peak; the running totals' recount runs beside it), money from billing's payments and slots, and
 * the sources still to come answering zeros (voice, push, referrals, the SMS balance). When one of
 * those lands, its answer replaces the `layerNone` (or the zero) here.
 */
import { Billing } from "@veche/billing"
import { DiscoveryRepo } from "@veche/discovery"
import { PresenceStore } from "@veche/gateway"
import { GuildsRepo } from "@veche/guilds"
import { ModerationStats, OnlinePeaks, type Staff, StatsSources, TotalsRecount } from "@veche/moderation"
import { Effect, Layer } from "effect"

const statsGuilds = Layer.effect(
  StatsSources.StatsGuilds,
  Effect.gen(function* () {
    const guilds = yield* GuildsRepo.GuildsRepo
    const catalogue = yield* DiscoveryRepo.DiscoveryRepo
    return StatsSources.StatsGuilds.of({
      facts: (guildIds) => guilds.summaries(guildIds),
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
> = Layer.mergeAll(ModerationStats.ModerationStats.layer, OnlinePeaks.layer, TotalsRecount.layer).pipe(
  Layer.provide(sources)
)
