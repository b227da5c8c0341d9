/**
 * The members a gateway session asks for with op 8 (REQUEST_GUILD_MEMBERS), as guild member
 * objects: those whose username, display name or nickname starts with a query (any case; "" is
 * everyone), or those with given ids (with the ids that are not members). The gateway checks who may
 * ask and cuts the answer into GUILD_MEMBERS_CHUNKs.
 *
 * A query walks the member list by user id, a page at a time, and stops at `limit`: there is no
 * name index over members (a guild's list is bounded by MAX_MEMBERS), which is fine for the guilds
 * this serves; a large deployment would add a search index behind the same service.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { PublicUsers } from "@veche/users"
import { Context, Effect, Layer } from "effect"
import type { Member, Role } from "./Guild.ts"
import { isBotMember } from "./GuildBots.ts"
import type * as GuildSchemas from "./GuildSchemas.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import * as GuildViews from "./GuildViews.ts"

/** Members read per step of a query. */
const PAGE = 1000

export class MemberChunks extends Context.Service<
  MemberChunks,
  {
    /** Members matching `query` by prefix, at most `limit` (0: no limit), ordered by user id. */
    readonly search: (
      guildId: Snowflake.Snowflake,
      query: string,
      limit: number
    ) => Effect.Effect<ReadonlyArray<GuildSchemas.Member>>
    /** The members among `userIds`, and the ids that are not members (or whose user is gone). */
    readonly byIds: (
      guildId: Snowflake.Snowflake,
      userIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<{
      readonly members: ReadonlyArray<GuildSchemas.Member>
      readonly notFound: ReadonlyArray<Snowflake.Snowflake>
    }>
  }
>()("@veche/guilds/MemberChunks") {
  static readonly layer: Layer.Layer<MemberChunks, never, GuildsRepo | PublicUsers.PublicUsers> = Layer.effect(
    MemberChunks,
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const users = yield* PublicUsers.PublicUsers

      const show = (roles: ReadonlyArray<Role>, members: ReadonlyArray<Member>) =>
        Effect.map(
          users.findMany(
            members.map((member) => member.userId),
            (userId) => members.some((member) => member.userId === userId && isBotMember(roles, member))
          ),
          (found) =>
            members.flatMap((member) => {
              const user = found.get(member.userId)
              return user === undefined ? [] : [GuildViews.member(member, user)]
            })
        )

      const matches = (shown: GuildSchemas.Member, prefix: string) =>
        prefix === "" ||
        shown.user.username.toLowerCase().startsWith(prefix) ||
        (shown.user.global_name ?? "").toLowerCase().startsWith(prefix) ||
        (shown.nick ?? "").toLowerCase().startsWith(prefix)

      return MemberChunks.of({
        search: Spans.fn("MemberChunks.search")(function* (guildId, query, limit) {
          const prefix = query.toLowerCase()
          const roles = yield* repo.roles(guildId)
          const found: Array<GuildSchemas.Member> = []
          let after: Snowflake.Snowflake | undefined
          for (;;) {
            const page = yield* repo.members(guildId, { after, limit: PAGE })
            for (const shown of yield* show(roles, page)) {
              if (!matches(shown, prefix)) continue
              found.push(shown)
              if (limit > 0 && found.length >= limit) return found
            }
            const last = page.at(-1)
            if (page.length < PAGE || last === undefined) return found
            after = last.userId
          }
        }),
        byIds: Spans.fn("MemberChunks.byIds")(function* (guildId, userIds) {
          const roles = yield* repo.roles(guildId)
          const wanted = [...new Set(userIds)]
          const members = yield* Effect.forEach(wanted, (userId) => repo.member(guildId, userId), {
            concurrency: 8
          })
          const shown = yield* show(
            roles,
            members.flatMap((member) => (member._tag === "Some" ? [member.value] : []))
          )
          const present = new Set(shown.map((member) => member.user.id))
          return { members: shown, notFound: wanted.filter((userId) => !present.has(userId)) }
        })
      })
    })
  )
}
