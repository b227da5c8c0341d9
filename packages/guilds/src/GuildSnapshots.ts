/**
 * The guild as a member receives it on joining (GUILD_CREATE): the guild with its roles and
 * channels, the member count and the joining member. One builder for the gateway's dispatch, the
 * invitation answer and the catalogue's join route, so the three never drift apart.
 */
import type { Snowflake } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Context, Effect, Layer, Option } from "effect"
import { isBotMember } from "./GuildBots.ts"
import type * as GuildSchemas from "./GuildSchemas.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import * as GuildViews from "./GuildViews.ts"

export class GuildSnapshots extends Context.Service<
  GuildSnapshots,
  {
    /** None when the guild is gone or the user is not (or no longer) a member. */
    readonly guildCreate: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<GuildSchemas.GuildCreate>>
  }
>()("@veche/guilds/GuildSnapshots") {
  static readonly layer: Layer.Layer<GuildSnapshots, never, GuildsRepo | PublicUsers.PublicUsers> = Layer.effect(
    GuildSnapshots,
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const users = yield* PublicUsers.PublicUsers
      return GuildSnapshots.of({
        guildCreate: Effect.fn("GuildSnapshots.guildCreate")(function* (guildId, userId) {
          const [guild, member, roles, channels, memberCount] = yield* Effect.all(
            [
              repo.find(guildId),
              repo.member(guildId, userId),
              repo.roles(guildId),
              repo.channels(guildId),
              repo.memberCount(guildId)
            ],
            { concurrency: "unbounded" }
          )
          if (Option.isNone(guild) || Option.isNone(member)) return Option.none()
          const user = yield* users.find(userId, isBotMember(roles, member.value))
          if (Option.isNone(user)) return Option.none()
          return Option.some(
            GuildViews.guildCreate({
              guild: guild.value,
              roles,
              channels,
              members: [{ member: member.value, user: user.value }],
              memberCount,
              joinedAt: member.value.joinedAt
            })
          )
        })
      })
    })
  )
}
