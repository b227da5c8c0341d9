/**
 * The staff statistics over the domains that answer their ports: guild names and member counts from
 * the guilds' records, the listed count from the catalogue's, users online now from the gateway's
 * presence (with the sampler keeping each day's peak), and the sources still to come answering zeros
 * (voice; billing: MoneyStats; push). When one of those lands, its answer replaces the `layerNone` here.
 */
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

const sources = Layer.mergeAll(
  statsGuilds,
  onlineNow,
  StatsSources.VoiceStats.layerNone,
  StatsSources.MoneyStats.layerNone,
  StatsSources.PushUsers.layerNone
)

export const layer: Layer.Layer<
  ModerationStats.ModerationStats,
  never,
  GuildsRepo.GuildsRepo | DiscoveryRepo.DiscoveryRepo | Staff.Staff | PresenceStore.PresenceStore
> = Layer.merge(ModerationStats.ModerationStats.layer, OnlinePeaks.layer).pipe(Layer.provide(sources))
