/**
 * The staff statistics over the domains that answer their ports: guild names and member counts from
 * the guilds' records, the listed count from the catalogue's, and the sources still to come
 * answering zeros (presence: OnlineNow; voice; billing: MoneyStats; push). When one of those
 * domains lands, its answer replaces the `layerNone` here. The online-peak sampler (`OnlinePeaks.layer`)
 * joins when presence answers OnlineNow: until then every sample would be 0, and a sampler ticking
 * each minute slows every test that moves a host's clock by days.
 */
import { DiscoveryRepo } from "@veche/discovery"
import { GuildsRepo } from "@veche/guilds"
import { ModerationStats, type Staff, StatsSources } from "@veche/moderation"
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

const sources = Layer.mergeAll(
  statsGuilds,
  StatsSources.OnlineNow.layerNone,
  StatsSources.VoiceStats.layerNone,
  StatsSources.MoneyStats.layerNone,
  StatsSources.PushUsers.layerNone
)

export const layer: Layer.Layer<
  ModerationStats.ModerationStats,
  never,
  GuildsRepo.GuildsRepo | DiscoveryRepo.DiscoveryRepo | Staff.Staff
> = ModerationStats.ModerationStats.layer.pipe(Layer.provide(sources))
