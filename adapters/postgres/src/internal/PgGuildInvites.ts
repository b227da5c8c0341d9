/**
 * GuildsRepo on PostgreSQL, its bans and invites: a ban replaces any earlier one and ends the
 * membership in the same transaction; invites are capped per guild (dead ones purged), and `accept`
 * joins through a live invite with `join`'s checks, counting a use.
 */
import { Guild, GuildsErrors, type GuildsRepo } from "@veche/guilds"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { date } from "./GuildRecords.ts"
import { banRows, countRows, id, inviteRows, toBan, toInvite } from "./GuildRows.ts"
import { type Locks, noGuild } from "./PgGuildLocks.ts"
import { isLive, type Queries } from "./PgGuildQueries.ts"

type Service = GuildsRepo.GuildsRepo["Service"]

export const make = (sql: SqlClient.SqlClient, locks: Locks, queries: Queries): GuildsRepo.BansAndInvitesPart => {
  const { transaction, run, lockUser, lockGuild } = locks
  const { joinChecks, addMember, dropMember, findMember, live, pageOf } = queries

  // --- bans

  const ban: Service["ban"] = (record) =>
    transaction(
      Effect.gen(function* () {
        if (!(yield* lockGuild(record.guildId))) return yield* noGuild
        yield* run(sql`
          INSERT INTO guild_bans ${sql.insert({
            guild_id: record.guildId,
            user_id: record.userId,
            reason: record.reason,
            banned_by: record.bannedBy,
            created_at: date(record.createdAt)
          })}
          ON CONFLICT (guild_id, user_id) DO UPDATE
            SET reason = EXCLUDED.reason, banned_by = EXCLUDED.banned_by, created_at = EXCLUDED.created_at`)
        return yield* dropMember(record.guildId, record.userId)
      })
    )

  const bans: Service["bans"] = (guildId, page) => {
    const { where, order, ascending } = pageOf("user_id", page)
    return Effect.map(banRows(sql`SELECT * FROM guild_bans WHERE guild_id = ${guildId} ${where} ${order}`), (rows) =>
      ascending(rows).map(toBan)
    )
  }

  // --- invites

  // The purge is kept even when the cap refuses (the transaction returns instead of failing). The
  // channel is looked up under the guild row's lock, which deleteChannel also takes: a channel
  // deleted meanwhile is NoSuchChannel here, never the insert's foreign-key violation (a 500).
  const createInvite: Service["createInvite"] = (invite, now) =>
    transaction(
      Effect.gen(function* () {
        if (!(yield* lockGuild(invite.guildId))) return yield* noGuild
        const channel = yield* run(
          sql`SELECT 1 FROM guild_channels WHERE id = ${invite.channelId} AND guild_id = ${invite.guildId}`
        )
        if (channel.length === 0) return yield* new GuildsErrors.NoSuchChannel()
        yield* run(sql`DELETE FROM guild_invites WHERE guild_id = ${invite.guildId} AND NOT (${live(now)})`)
        const [count] = yield* countRows(
          sql`SELECT count(*)::integer AS n FROM guild_invites WHERE guild_id = ${invite.guildId}`
        )
        if ((count?.n ?? 0) >= Guild.MAX_INVITES) return false
        yield* run(
          sql`INSERT INTO guild_invites ${sql.insert({
            code: invite.code,
            guild_id: invite.guildId,
            channel_id: invite.channelId,
            inviter_id: invite.inviterId,
            max_age: invite.maxAge,
            max_uses: invite.maxUses,
            uses: invite.uses,
            temporary: invite.temporary,
            created_at: date(invite.createdAt)
          })}`
        )
        return true
      })
    ).pipe(Effect.flatMap((created) => (created ? Effect.void : Effect.fail(new GuildsErrors.InviteLimitReached()))))

  // Lock order: user, guild row, then the invite row (see the module header). The first read
  // only finds the guild; the invite is checked again once locked.
  const accept: Service["accept"] = (code, userId, now, cap) =>
    transaction(
      Effect.gen(function* () {
        const [found] = yield* inviteRows(sql`SELECT * FROM guild_invites WHERE code = ${code}`)
        if (found === undefined || !isLive(toInvite(found), now)) return yield* new GuildsErrors.InviteNotFound()
        const guildId = id(found.guild_id)
        if (cap !== null) yield* lockUser(userId)
        yield* lockGuild(guildId)
        const [locked] = yield* inviteRows(sql`SELECT * FROM guild_invites WHERE code = ${code} FOR UPDATE`)
        const invite = locked === undefined ? undefined : toInvite(locked)
        if (invite === undefined || !isLive(invite, now)) return yield* new GuildsErrors.InviteNotFound()
        const existing = yield* findMember(guildId, userId)
        if (Option.isSome(existing)) return { invite, member: existing.value, joined: false }
        const checks = yield* joinChecks(guildId, userId)
        if (checks.banned) return yield* new GuildsErrors.BannedFromGuild()
        if (cap !== null && checks.joined >= cap) return yield* new GuildsErrors.GuildLimitReached()
        const member: Guild.Member = { guildId, userId, nick: null, roleIds: [], joinedAt: now }
        yield* addMember(member)
        const used: Guild.Invite = { ...invite, uses: invite.uses + 1 }
        yield* used.maxUses !== 0 && used.uses >= used.maxUses
          ? run(sql`DELETE FROM guild_invites WHERE code = ${code}`)
          : run(sql`UPDATE guild_invites SET uses = uses + 1 WHERE code = ${code}`)
        return { invite: used, member, joined: true }
      })
    )

  return {
    ban,
    unban: (guildId, userId) =>
      Effect.map(
        run(sql`DELETE FROM guild_bans WHERE guild_id = ${guildId} AND user_id = ${userId} RETURNING user_id`),
        (rows) => rows.length > 0
      ),
    findBan: (guildId, userId) =>
      Effect.map(banRows(sql`SELECT * FROM guild_bans WHERE guild_id = ${guildId} AND user_id = ${userId}`), (rows) =>
        Option.map(Option.fromNullishOr(rows[0]), toBan)
      ),
    bans,

    createInvite,
    invite: (code, now) =>
      Effect.map(inviteRows(sql`SELECT * FROM guild_invites WHERE code = ${code} AND ${live(now)}`), (rows) =>
        Option.map(Option.fromNullishOr(rows[0]), toInvite)
      ),
    invitesOf: (guildId, now) =>
      Effect.map(
        inviteRows(sql`
          SELECT * FROM guild_invites WHERE guild_id = ${guildId} AND ${live(now)}
          ORDER BY created_at, code COLLATE "C"`),
        (rows) => rows.map(toInvite)
      ),
    deleteInvite: (code) =>
      Effect.map(inviteRows(sql`DELETE FROM guild_invites WHERE code = ${code} RETURNING *`), (rows) =>
        Option.map(Option.fromNullishOr(rows[0]), toInvite)
      ),
    accept
  }
}
