/**
 * The port to guilds and their roles, channels and members, and its in-memory adapter. Creating a
 * guild stores all its parts together, and the per-user guild cap is checked in the same step, so
 * concurrent creations or joins never take a user past it.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Ref } from "effect"
import { type Channel, type Guild, MAX_GUILDS_PER_USER, type Member, type NewGuild, type Role } from "./Guild.ts"
import { GuildLimitReached } from "./GuildsErrors.ts"

interface State {
  readonly guilds: ReadonlyMap<string, Guild>
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
  readonly members: ReadonlyArray<Member>
}

export class GuildsRepo extends Context.Service<
  GuildsRepo,
  {
    readonly create: (created: NewGuild) => Effect.Effect<void, GuildLimitReached>
    readonly find: (guildId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Guild>>
    /** Roles by position, @everyone first. */
    readonly roles: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Role>>
    /** Channels by position. */
    readonly channels: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Channel>>
    readonly member: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Member>>
    readonly memberCount: (guildId: Snowflake.Snowflake) => Effect.Effect<number>
    /** The guilds a user is in, oldest membership first. */
    readonly guildsOf: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /** Whether the user owns a guild with other members. */
    readonly ownsGuildsWithOthers: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/guilds/GuildsRepo") {
  static readonly layerMemory: Layer.Layer<GuildsRepo> = Layer.effect(
    GuildsRepo,
    Effect.gen(function* () {
      const state = yield* Ref.make<State>({ guilds: new Map(), roles: [], channels: [], members: [] })
      const read = <A>(f: (s: State) => A) => Effect.map(Ref.get(state), f)
      const byPosition = <T extends { readonly position: number; readonly id: string }>(list: ReadonlyArray<T>) =>
        [...list].sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1))

      return GuildsRepo.of({
        create: (created) =>
          Ref.modify(state, (s): [Effect.Effect<void, GuildLimitReached>, State] => {
            const joined = s.members.filter((member) => member.userId === created.owner.userId).length
            if (joined >= MAX_GUILDS_PER_USER) return [Effect.fail(new GuildLimitReached()), s]
            return [
              Effect.void,
              {
                guilds: new Map(s.guilds).set(created.guild.id, created.guild),
                roles: [...s.roles, created.everyone],
                channels: [...s.channels, ...created.channels],
                members: [...s.members, created.owner]
              }
            ]
          }).pipe(Effect.flatten),
        find: (guildId) => read((s) => Option.fromNullishOr(s.guilds.get(guildId))),
        roles: (guildId) => read((s) => byPosition(s.roles.filter((role) => role.guildId === guildId))),
        channels: (guildId) => read((s) => byPosition(s.channels.filter((channel) => channel.guildId === guildId))),
        member: (guildId, userId) =>
          read((s) => Option.fromNullishOr(s.members.find((m) => m.guildId === guildId && m.userId === userId))),
        memberCount: (guildId) => read((s) => s.members.filter((m) => m.guildId === guildId).length),
        guildsOf: (userId) => read((s) => s.members.filter((m) => m.userId === userId).map((m) => m.guildId)),
        ownsGuildsWithOthers: (userId) =>
          read((s) =>
            [...s.guilds.values()].some(
              (guild) => guild.ownerId === userId && s.members.filter((m) => m.guildId === guild.id).length > 1
            )
          )
      })
    })
  )
}
