/**
 * The guild as a member receives it on joining (GUILD_CREATE): the guild with its roles and
 * channels, the member count and the joining member. One builder for the gateway's dispatch, the
 * invitation answer and the catalogue's join route, so the three never drift apart.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { type Profile, PublicUser, PublicUsers, type User } from "@veche/users"
import { Context, Effect, Layer, Option } from "effect"
import type { Role } from "./Guild.ts"
import { isBotMember } from "./GuildBots.ts"
import { GuildPremium } from "./GuildPremium.ts"
import type * as GuildSchemas from "./GuildSchemas.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import * as GuildViews from "./GuildViews.ts"

export interface GuildCreateOptions {
  readonly members?: "self" | "all" | undefined
  /** The session's large_threshold (50–250; default 50). */
  readonly largeThreshold?: number | undefined
  /**
   * The recipient's user and profile, when the caller has just read them (a user's IDENTIFY reads
   * them for READY): the member's user object is built from them as PublicUsers would build it,
   * instead of reading them again.
   */
  readonly recipient?: { readonly user: User.User; readonly profile: Profile.Profile } | undefined
}

export class GuildSnapshots extends Context.Service<
  GuildSnapshots,
  {
    /**
     * None when the guild is gone or the user is not (or no longer) a member. The members sent are
     * the recipient alone unless `options.members` is "all" (a gateway session allowed to see the
     * member list): then every member of a guild up to the large threshold, and the recipient alone
     * past it (the guild is then `large`, and clients ask for members instead).
     */
    readonly guildCreate: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      options?: GuildCreateOptions
    ) => Effect.Effect<Option.Option<GuildSchemas.GuildCreate>>
  }
>()("@veche/guilds/GuildSnapshots") {
  static readonly layer: Layer.Layer<GuildSnapshots, never, GuildsRepo | PublicUsers.PublicUsers> = Layer.effect(
    GuildSnapshots,
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const users = yield* PublicUsers.PublicUsers
      const premium = yield* GuildPremium
      /** Every member of a small guild with its user (a member whose user is gone is left out). */
      const everyMember = (guildId: Snowflake.Snowflake, roles: ReadonlyArray<Role>, limit: number) =>
        Effect.gen(function* () {
          const members = yield* repo.members(guildId, { limit })
          const byId = new Map(members.map((m) => [m.userId, m] as const))
          const found = yield* users.findMany(
            members.map((m) => m.userId),
            (userId) => {
              const m = byId.get(userId)
              return m !== undefined && isBotMember(roles, m)
            }
          )
          return members.flatMap((m) => {
            const u = found.get(m.userId)
            return u === undefined ? [] : [{ member: m, user: u }]
          })
        })
      return GuildSnapshots.of({
        guildCreate: Spans.fn("GuildSnapshots.guildCreate")(function* (guildId, userId, options) {
          const found = yield* repo.memberSnapshot(guildId, userId)
          if (Option.isNone(found)) return Option.none()
          const { guild, member, roles, channels, memberCount } = found.value
          const bot = isBotMember(roles, member)
          const recipient = options?.recipient
          const user =
            recipient !== undefined && recipient.user.id === userId
              ? Option.some(PublicUser.view(recipient.user, recipient.profile, bot || recipient.user.bot === true))
              : yield* users.find(userId, bot)
          if (Option.isNone(user)) return Option.none()
          const largeThreshold = options?.largeThreshold ?? GuildViews.DEFAULT_LARGE_THRESHOLD
          const self = [{ member, user: user.value }]
          const members =
            options?.members === "all" && memberCount <= largeThreshold
              ? yield* everyMember(guildId, roles, largeThreshold)
              : self
          return Option.some(
            GuildViews.guildCreate({
              guild,
              roles,
              channels,
              members: members.length === 0 ? self : members,
              memberCount,
              joinedAt: member.joinedAt,
              largeThreshold,
              premium: yield* premium.of(guildId)
            })
          )
        })
      })
    })
  )
}
