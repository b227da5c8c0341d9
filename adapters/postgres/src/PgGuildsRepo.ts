/**
 * GuildsRepo on PostgreSQL (migrations 0013 and 0014). Every rule that must hold under concurrency
 * is settled by the database, inside one transaction per method:
 *
 * - Locks are always taken in one order, so two steps never wait on each other: the user's advisory
 *   lock (`pg_advisory_xact_lock(userId)`; create, join, accept), then the guild row
 *   (`FOR NO KEY UPDATE`), then rows inside the guild (invites, members, roles, channels, bans).
 *   `accept` finds the invite's guild without a lock and locks the invite row last, after the
 *   guild: steps that delete invites (deleteChannel, remove, the purge in createInvite) hold the
 *   guild row when they do, so an invite-first `accept` could deadlock with them.
 * - The per-user guild cap is counted under the user's lock; the role, channel and invite caps
 *   under the guild row's lock.
 * - Every step that adds or removes members holds the guild row and keeps `guilds.member_count`
 *   exact in the same transaction, so counts are read without counting rows and `transfer`, which
 *   checks membership under the same lock, never hands a guild to someone who just left.
 * - `FOR NO KEY UPDATE` rather than `FOR UPDATE`: the same mutual exclusion between these steps,
 *   without blocking other tables' foreign-key checks against the guild.
 */
import { Guild, GuildsErrors, GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

type Service = GuildsRepo.GuildsRepo["Service"]

const id = (n: bigint) => Snowflake.Snowflake.make(String(n))
const optionalId = (n: bigint | null) => (n === null ? null : id(n))
const date = DateTime.toDateUtc

const GuildRow = Schema.Struct({
  id: Schema.BigInt,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  owner_id: Schema.BigInt,
  verification_level: Guild.Guild.fields.verificationLevel,
  default_message_notifications: Guild.Guild.fields.defaultMessageNotifications,
  explicit_content_filter: Guild.Guild.fields.explicitContentFilter,
  system_channel_id: Schema.NullOr(Schema.BigInt),
  rules_channel_id: Schema.NullOr(Schema.BigInt),
  public_updates_channel_id: Schema.NullOr(Schema.BigInt),
  afk_channel_id: Schema.NullOr(Schema.BigInt),
  afk_timeout: Schema.Int,
  preferred_locale: Schema.String,
  features: Schema.Array(Schema.String),
  created_at: Schema.Date
})
const RoleRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  name: Schema.String,
  permissions: Schema.String,
  position: Schema.Int,
  color: Schema.Int,
  hoist: Schema.Boolean,
  mentionable: Schema.Boolean,
  managed: Schema.Boolean,
  bot_id: Schema.NullOr(Schema.BigInt)
})
const StoredOverwrite = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals([0, 1]),
  allow: Schema.String,
  deny: Schema.String
})
const ChannelRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  type: Guild.ChannelType,
  name: Schema.String,
  position: Schema.Int,
  parent_id: Schema.NullOr(Schema.BigInt),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  rate_limit_per_user: Schema.Int,
  bitrate: Schema.Int,
  user_limit: Schema.Int,
  overwrites: Schema.Array(StoredOverwrite)
})
const MemberRow = Schema.Struct({
  guild_id: Schema.BigInt,
  user_id: Schema.BigInt,
  nick: Schema.NullOr(Schema.String),
  role_ids: Schema.Array(Schema.String),
  joined_at: Schema.Date
})
const BanRow = Schema.Struct({
  guild_id: Schema.BigInt,
  user_id: Schema.BigInt,
  reason: Schema.NullOr(Schema.String),
  banned_by: Schema.BigInt,
  created_at: Schema.Date
})
const InviteRow = Schema.Struct({
  code: Schema.String,
  guild_id: Schema.BigInt,
  channel_id: Schema.BigInt,
  inviter_id: Schema.NullOr(Schema.BigInt),
  max_age: Schema.Int,
  max_uses: Schema.Int,
  uses: Schema.Int,
  temporary: Schema.Boolean,
  created_at: Schema.Date
})
const CountRow = Schema.Struct({ n: Schema.Int })
const GuildCountRow = Schema.Struct({ id: Schema.BigInt, n: Schema.Int })
const ChecksRow = Schema.Struct({ banned: Schema.Boolean, joined: Schema.Int })

/** Rows decoded with their schema; a query or decoding failure is a defect (infrastructure). */
const decode = <S extends Schema.Top>(schema: S) => {
  const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
    Effect.orDie(Effect.flatMap(query, rows)) as Effect.Effect<ReadonlyArray<S["Type"]>>
}
const guildRows = decode(GuildRow)
const roleRows = decode(RoleRow)
const channelRows = decode(ChannelRow)
const memberRows = decode(MemberRow)
const banRows = decode(BanRow)
const inviteRows = decode(InviteRow)
const countRows = decode(CountRow)
const guildCountRows = decode(GuildCountRow)
const checksRows = decode(ChecksRow)

const toGuild = (row: typeof GuildRow.Type): Guild.Guild => ({
  id: id(row.id),
  name: row.name,
  icon: row.icon,
  banner: row.banner,
  description: row.description,
  ownerId: id(row.owner_id),
  verificationLevel: row.verification_level,
  defaultMessageNotifications: row.default_message_notifications,
  explicitContentFilter: row.explicit_content_filter,
  systemChannelId: optionalId(row.system_channel_id),
  rulesChannelId: optionalId(row.rules_channel_id),
  publicUpdatesChannelId: optionalId(row.public_updates_channel_id),
  afkChannelId: optionalId(row.afk_channel_id),
  afkTimeout: row.afk_timeout,
  preferredLocale: row.preferred_locale,
  features: row.features,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})
const toRole = (row: typeof RoleRow.Type): Guild.Role => ({
  id: id(row.id),
  guildId: id(row.guild_id),
  name: row.name,
  permissions: BigInt(row.permissions),
  position: row.position,
  color: row.color,
  hoist: row.hoist,
  mentionable: row.mentionable,
  managed: row.managed,
  botId: optionalId(row.bot_id)
})
const toChannel = (row: typeof ChannelRow.Type): Guild.Channel => ({
  id: id(row.id),
  guildId: id(row.guild_id),
  type: row.type,
  name: row.name,
  position: row.position,
  parentId: optionalId(row.parent_id),
  topic: row.topic,
  nsfw: row.nsfw,
  rateLimitPerUser: row.rate_limit_per_user,
  bitrate: row.bitrate,
  userLimit: row.user_limit,
  overwrites: row.overwrites.map((o) => ({
    id: Snowflake.Snowflake.make(o.id),
    type: o.type,
    allow: BigInt(o.allow),
    deny: BigInt(o.deny)
  }))
})
const toMember = (row: typeof MemberRow.Type): Guild.Member => ({
  guildId: id(row.guild_id),
  userId: id(row.user_id),
  nick: row.nick,
  roleIds: row.role_ids.map((roleId) => Snowflake.Snowflake.make(roleId)),
  joinedAt: DateTime.fromDateUnsafe(row.joined_at)
})
const toBan = (row: typeof BanRow.Type): Guild.Ban => ({
  guildId: id(row.guild_id),
  userId: id(row.user_id),
  reason: row.reason,
  bannedBy: id(row.banned_by),
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})
const toInvite = (row: typeof InviteRow.Type): Guild.Invite => ({
  code: row.code,
  guildId: id(row.guild_id),
  channelId: id(row.channel_id),
  inviterId: optionalId(row.inviter_id),
  maxAge: row.max_age,
  maxUses: row.max_uses,
  uses: row.uses,
  temporary: row.temporary,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

// --- rows as stored (permission bit sets as decimal text, lists as JSON)

const overwritesJson = (overwrites: ReadonlyArray<Guild.Overwrite>) =>
  JSON.stringify(
    overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }))
  )

const guildRecord = (guild: Guild.Guild, memberCount: number) => ({
  id: guild.id,
  name: guild.name,
  icon: guild.icon,
  banner: guild.banner,
  description: guild.description,
  owner_id: guild.ownerId,
  verification_level: guild.verificationLevel,
  default_message_notifications: guild.defaultMessageNotifications,
  explicit_content_filter: guild.explicitContentFilter,
  system_channel_id: guild.systemChannelId,
  rules_channel_id: guild.rulesChannelId,
  public_updates_channel_id: guild.publicUpdatesChannelId,
  afk_channel_id: guild.afkChannelId,
  afk_timeout: guild.afkTimeout,
  preferred_locale: guild.preferredLocale,
  features: JSON.stringify(guild.features),
  member_count: memberCount,
  created_at: date(guild.createdAt)
})
const roleRecord = (role: Guild.Role) => ({
  id: role.id,
  guild_id: role.guildId,
  name: role.name,
  permissions: role.permissions.toString(),
  position: role.position,
  color: role.color,
  hoist: role.hoist,
  mentionable: role.mentionable,
  managed: role.managed,
  bot_id: role.botId
})
const channelRecord = (channel: Guild.Channel) => ({
  id: channel.id,
  guild_id: channel.guildId,
  type: channel.type,
  name: channel.name,
  position: channel.position,
  parent_id: channel.parentId,
  topic: channel.topic,
  nsfw: channel.nsfw,
  rate_limit_per_user: channel.rateLimitPerUser,
  bitrate: channel.bitrate,
  user_limit: channel.userLimit,
  overwrites: overwritesJson(channel.overwrites)
})
const memberRecord = (member: Guild.Member) => ({
  guild_id: member.guildId,
  user_id: member.userId,
  nick: member.nick,
  role_ids: JSON.stringify(member.roleIds),
  joined_at: date(member.joinedAt)
})

/** For each patchable field: its column and, when it is not stored as is, how it is stored. */
type Columns<P> = {
  readonly [K in keyof P]-?: readonly [column: string, encode?: (value: Exclude<P[K], undefined>) => unknown]
}
/** The columns a patch sets (absent fields stay as they are). */
const columnsOf = <P extends object>(patch: P, columns: Columns<P>): Record<string, unknown> => {
  const set: Record<string, unknown> = {}
  for (const key of Object.keys(columns) as Array<keyof P>) {
    const value = patch[key]
    if (value === undefined) continue
    const [column, encode] = columns[key]
    set[column] = encode === undefined ? value : encode(value as Exclude<P[keyof P], undefined>)
  }
  return set
}
const guildColumns: Columns<Guild.GuildPatch> = {
  name: ["name"],
  icon: ["icon"],
  banner: ["banner"],
  description: ["description"],
  verificationLevel: ["verification_level"],
  defaultMessageNotifications: ["default_message_notifications"],
  explicitContentFilter: ["explicit_content_filter"],
  systemChannelId: ["system_channel_id"],
  rulesChannelId: ["rules_channel_id"],
  publicUpdatesChannelId: ["public_updates_channel_id"],
  afkChannelId: ["afk_channel_id"],
  afkTimeout: ["afk_timeout"],
  preferredLocale: ["preferred_locale"],
  features: ["features", (features) => JSON.stringify(features)]
}
const roleColumns: Columns<Guild.RolePatch> = {
  name: ["name"],
  permissions: ["permissions", (permissions) => permissions.toString()],
  position: ["position"],
  color: ["color"],
  hoist: ["hoist"],
  mentionable: ["mentionable"]
}
const channelColumns: Columns<Guild.ChannelPatch> = {
  name: ["name"],
  position: ["position"],
  parentId: ["parent_id"],
  topic: ["topic"],
  nsfw: ["nsfw"],
  rateLimitPerUser: ["rate_limit_per_user"],
  bitrate: ["bitrate"],
  userLimit: ["user_limit"],
  overwrites: ["overwrites", overwritesJson]
}
const memberColumns: Columns<Guild.MemberPatch> = {
  nick: ["nick"],
  roleIds: ["role_ids", (roleIds) => JSON.stringify(roleIds)]
}

/** Whether an invite can still be used at `now` (the same rule as the SQL `live` condition). */
const isLive = (invite: Guild.Invite, now: DateTime.Utc) =>
  (invite.maxAge === 0 ||
    DateTime.toEpochMillis(invite.createdAt) + invite.maxAge * 1000 > DateTime.toEpochMillis(now)) &&
  (invite.maxUses === 0 || invite.uses < invite.maxUses)

/** Rows that refer to a missing guild are a broken invariant: the domain checks the guild first. */
/** The guild was deleted after the domain's checks (its row lock finds nothing). */
const noGuild = Effect.fail(new GuildsErrors.NoSuchGuild())

export const layer: Layer.Layer<GuildsRepo.GuildsRepo, never, SqlClient.SqlClient> = Layer.effect(
  GuildsRepo.GuildsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** One transaction; its domain refusals stay typed, SQL failures become defects. */
    const transaction = <A, E>(body: Effect.Effect<A, E>): Effect.Effect<A, E> =>
      sql.withTransaction(body).pipe(Effect.catchTag("SqlError", Effect.die)) as Effect.Effect<A, E>
    const run = (statement: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(statement)

    /** The user's guild-cap lock, first in the lock order. */
    const lockUser = (userId: Snowflake.Snowflake) => run(sql`SELECT pg_advisory_xact_lock(${userId}::bigint)`)
    /** The guild row's lock (false when there is no such guild), second in the lock order. */
    const lockGuild = (guildId: Snowflake.Snowflake) =>
      Effect.map(run(sql`SELECT id FROM guilds WHERE id = ${guildId} FOR NO KEY UPDATE`), (rows) => rows.length > 0)
    const guildsJoined = (userId: Snowflake.Snowflake) =>
      Effect.map(
        countRows(sql`SELECT count(*)::integer AS n FROM guild_members WHERE user_id = ${userId}`),
        (rows) => rows[0]?.n ?? 0
      )
    /** Whether the user is banned from the guild and how many guilds they are in. */
    const joinChecks = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
      Effect.map(
        checksRows(sql`
          SELECT
            EXISTS (SELECT 1 FROM guild_bans WHERE guild_id = ${guildId} AND user_id = ${userId}) AS banned,
            (SELECT count(*)::integer FROM guild_members WHERE user_id = ${userId}) AS joined`),
        (rows) => rows[0] ?? { banned: false, joined: 0 }
      )
    /** Inserts the member and counts them, in one statement (the guild row is locked by the caller). */
    const addMember = (member: Guild.Member) =>
      run(sql`
        WITH added AS (INSERT INTO guild_members ${sql.insert(memberRecord(member))} RETURNING guild_id)
        UPDATE guilds SET member_count = member_count + (SELECT count(*) FROM added)::integer
        WHERE id = ${member.guildId}`)
    /** Deletes the membership and uncounts it, in one statement; true when there was one. */
    const dropMember = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
      Effect.map(
        run(sql`
          WITH dropped AS (
            DELETE FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${userId} RETURNING guild_id)
          UPDATE guilds SET member_count = member_count - (SELECT count(*) FROM dropped)::integer
          WHERE id = ${guildId} AND EXISTS (SELECT 1 FROM dropped)
          RETURNING id`),
        (rows) => rows.length > 0
      )
    const findMember = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
      Effect.map(
        memberRows(sql`SELECT * FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${userId}`),
        (rows) => Option.map(Option.fromNullishOr(rows[0]), toMember)
      )
    const findGuild = (guildId: Snowflake.Snowflake) =>
      Effect.map(guildRows(sql`SELECT * FROM guilds WHERE id = ${guildId}`), (rows) =>
        Option.map(Option.fromNullishOr(rows[0]), toGuild)
      )
    /** The SQL side of `isLive`, for the invites table. */
    const live = (now: DateTime.Utc) => sql`
      (max_age = 0 OR created_at + max_age * interval '1 second' > ${date(now)})
      AND (max_uses = 0 OR uses < max_uses)`
    /** Filters of a page by `column` (after, before) and its order: with only `before`, read backwards. */
    const pageOf = (column: "g.id" | "user_id", page: Guild.Page) => {
      const key = sql.literal(column)
      const backwards = page.before !== undefined && page.after === undefined
      return {
        where: sql`${page.after === undefined ? sql`` : sql`AND ${key} > ${page.after}`}
          ${page.before === undefined ? sql`` : sql`AND ${key} < ${page.before}`}`,
        order: sql`ORDER BY ${key} ${backwards ? sql`DESC` : sql`ASC`} LIMIT ${Math.max(0, page.limit)}`,
        ascending: <A>(rows: ReadonlyArray<A>) => (backwards ? [...rows].reverse() : rows)
      }
    }

    // --- guilds

    const create: Service["create"] = ({ guild, everyone, channels, owner }) =>
      transaction(
        Effect.gen(function* () {
          yield* lockUser(owner.userId)
          if ((yield* guildsJoined(owner.userId)) >= Guild.MAX_GUILDS_PER_USER) {
            return yield* new GuildsErrors.GuildLimitReached()
          }
          yield* run(sql`INSERT INTO guilds ${sql.insert(guildRecord(guild, 1))}`)
          yield* run(sql`INSERT INTO guild_roles ${sql.insert(roleRecord(everyone))}`)
          const [first, ...rest] = channels.map(channelRecord)
          if (first !== undefined) yield* run(sql`INSERT INTO guild_channels ${sql.insert([first, ...rest])}`)
          yield* run(sql`INSERT INTO guild_members ${sql.insert(memberRecord(owner))}`)
        })
      )

    const update: Service["update"] = (guildId, patch) => {
      const set = columnsOf(patch, guildColumns)
      if (Object.keys(set).length === 0) return findGuild(guildId)
      return Effect.map(
        guildRows(sql`UPDATE guilds SET ${sql.update(set)} WHERE id = ${guildId} RETURNING *`),
        (rows) => Option.map(Option.fromNullishOr(rows[0]), toGuild)
      )
    }

    // Membership is read after the guild row is locked, and every removal of a member holds that
    // lock: the statement's fresh snapshot sees any removal that won the lock first.
    const transfer: Service["transfer"] = (guildId, fromOwnerId, toUserId) =>
      transaction(
        Effect.gen(function* () {
          yield* lockGuild(guildId)
          const rows = yield* guildRows(sql`
            UPDATE guilds SET owner_id = ${toUserId}
            WHERE id = ${guildId} AND owner_id = ${fromOwnerId}
              AND EXISTS (SELECT 1 FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${toUserId})
            RETURNING *`)
          return Option.map(Option.fromNullishOr(rows[0]), toGuild)
        })
      )

    // Roles, channels, members, bans and invites go with the guild (ON DELETE CASCADE).
    const remove: Service["remove"] = (guildId) =>
      Effect.map(run(sql`DELETE FROM guilds WHERE id = ${guildId} RETURNING id`), (rows) => rows.length > 0)

    const guildsPage: Service["guildsPage"] = (userId, page) => {
      const { where, order, ascending } = pageOf("g.id", page)
      return Effect.map(
        guildRows(sql`
          SELECT g.* FROM guild_members m JOIN guilds g ON g.id = m.guild_id
          WHERE m.user_id = ${userId} ${where} ${order}`),
        (rows) => ascending(rows).map(toGuild)
      )
    }

    const memberCounts: Service["memberCounts"] = (guildIds) =>
      guildIds.length === 0
        ? Effect.succeed(new Map())
        : Effect.map(
            // One array parameter: one prepared statement whatever the number of ids.
            guildCountRows(sql`
              SELECT id, member_count AS n FROM guilds WHERE id = ANY(${`{${guildIds.join(",")}}`}::bigint[])`),
            (rows) => new Map(rows.map((row) => [id(row.id), row.n] as const))
          )

    // --- roles

    const createRole: Service["createRole"] = (role) =>
      transaction(
        Effect.gen(function* () {
          if (!(yield* lockGuild(role.guildId))) return yield* noGuild
          const [count] = yield* countRows(
            sql`SELECT count(*)::integer AS n FROM guild_roles WHERE guild_id = ${role.guildId}`
          )
          if ((count?.n ?? 0) >= Guild.MAX_ROLES) return yield* new GuildsErrors.RoleLimitReached()
          yield* run(sql`INSERT INTO guild_roles ${sql.insert(roleRecord(role))}`)
        })
      )

    const updateRole: Service["updateRole"] = (guildId, roleId, patch) => {
      const set = columnsOf(patch, roleColumns)
      const query =
        Object.keys(set).length === 0
          ? sql`SELECT * FROM guild_roles WHERE guild_id = ${guildId} AND id = ${roleId}`
          : sql`UPDATE guild_roles SET ${sql.update(set)} WHERE guild_id = ${guildId} AND id = ${roleId} RETURNING *`
      return Effect.map(roleRows(query), (rows) => Option.map(Option.fromNullishOr(rows[0]), toRole))
    }

    const deleteRole: Service["deleteRole"] = (guildId, roleId) =>
      transaction(
        Effect.gen(function* () {
          yield* lockGuild(guildId)
          const deleted = yield* run(
            sql`DELETE FROM guild_roles WHERE guild_id = ${guildId} AND id = ${roleId} RETURNING id`
          )
          if (deleted.length === 0) return false
          // role_ids holds ids as JSON strings: `-` drops the matching element.
          yield* run(sql`
            UPDATE guild_members SET role_ids = role_ids - ${roleId}::text
            WHERE guild_id = ${guildId} AND role_ids ? ${roleId}::text`)
          yield* run(sql`
            UPDATE guild_channels SET overwrites = COALESCE(
              (SELECT jsonb_agg(o ORDER BY n) FROM jsonb_array_elements(overwrites) WITH ORDINALITY AS e (o, n)
               WHERE NOT (o ->> 'id' = ${roleId}::text AND o ->> 'type' = '0')),
              '[]'::jsonb)
            WHERE guild_id = ${guildId}
              AND overwrites @> jsonb_build_array(jsonb_build_object('id', ${roleId}::text, 'type', 0))`)
          return true
        })
      )

    // --- channels

    const createChannel: Service["createChannel"] = (channel) =>
      transaction(
        Effect.gen(function* () {
          if (!(yield* lockGuild(channel.guildId))) return yield* noGuild
          const [count] = yield* countRows(
            sql`SELECT count(*)::integer AS n FROM guild_channels WHERE guild_id = ${channel.guildId}`
          )
          if ((count?.n ?? 0) >= Guild.MAX_CHANNELS) return yield* new GuildsErrors.ChannelLimitReached()
          yield* run(sql`INSERT INTO guild_channels ${sql.insert(channelRecord(channel))}`)
        })
      )

    const updateChannel: Service["updateChannel"] = (channelId, patch) => {
      const set = columnsOf(patch, channelColumns)
      const query =
        Object.keys(set).length === 0
          ? sql`SELECT * FROM guild_channels WHERE id = ${channelId}`
          : sql`UPDATE guild_channels SET ${sql.update(set)} WHERE id = ${channelId} RETURNING *`
      return Effect.map(channelRows(query), (rows) => Option.map(Option.fromNullishOr(rows[0]), toChannel))
    }

    // Under the guild row's lock, so no invite can be made for the channel meanwhile (createInvite
    // holds the same lock); the invites go first, explicitly, then what pointed at the channel.
    const deleteChannel: Service["deleteChannel"] = (channelId) =>
      transaction(
        Effect.gen(function* () {
          const [found] = yield* channelRows(sql`SELECT * FROM guild_channels WHERE id = ${channelId}`)
          if (found === undefined) return Option.none()
          const guildId = id(found.guild_id)
          yield* lockGuild(guildId)
          yield* run(sql`DELETE FROM guild_invites WHERE channel_id = ${channelId}`)
          const [deleted] = yield* channelRows(sql`DELETE FROM guild_channels WHERE id = ${channelId} RETURNING *`)
          if (deleted === undefined) return Option.none()
          yield* run(
            sql`UPDATE guild_channels SET parent_id = NULL WHERE guild_id = ${guildId} AND parent_id = ${channelId}`
          )
          yield* run(sql`
            UPDATE guilds SET
              system_channel_id = NULLIF(system_channel_id, ${channelId}::bigint),
              rules_channel_id = NULLIF(rules_channel_id, ${channelId}::bigint),
              public_updates_channel_id = NULLIF(public_updates_channel_id, ${channelId}::bigint),
              afk_channel_id = NULLIF(afk_channel_id, ${channelId}::bigint)
            WHERE id = ${guildId}
              AND ${channelId}::bigint IN (system_channel_id, rules_channel_id, public_updates_channel_id, afk_channel_id)`)
          return Option.some(toChannel(deleted))
        })
      )

    // --- members

    const join: Service["join"] = (member, capped) =>
      transaction(
        Effect.gen(function* () {
          if (capped) yield* lockUser(member.userId)
          if (!(yield* lockGuild(member.guildId))) return yield* noGuild
          if (Option.isSome(yield* findMember(member.guildId, member.userId))) return false
          const checks = yield* joinChecks(member.guildId, member.userId)
          if (checks.banned) return yield* new GuildsErrors.BannedFromGuild()
          if (capped && checks.joined >= Guild.MAX_GUILDS_PER_USER) return yield* new GuildsErrors.GuildLimitReached()
          yield* addMember(member)
          return true
        })
      )

    const updateMember: Service["updateMember"] = (guildId, userId, patch) => {
      const set = columnsOf(patch, memberColumns)
      if (Object.keys(set).length === 0) return findMember(guildId, userId)
      return Effect.map(
        memberRows(sql`
          UPDATE guild_members SET ${sql.update(set)} WHERE guild_id = ${guildId} AND user_id = ${userId} RETURNING *`),
        (rows) => Option.map(Option.fromNullishOr(rows[0]), toMember)
      )
    }

    const removeMember: Service["removeMember"] = (guildId, userId) =>
      transaction(
        Effect.gen(function* () {
          if (!(yield* lockGuild(guildId))) return false
          return yield* dropMember(guildId, userId)
        })
      )

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
    const accept: Service["accept"] = (code, userId, now, capped) =>
      transaction(
        Effect.gen(function* () {
          const [found] = yield* inviteRows(sql`SELECT * FROM guild_invites WHERE code = ${code}`)
          if (found === undefined || !isLive(toInvite(found), now)) return yield* new GuildsErrors.InviteNotFound()
          const guildId = id(found.guild_id)
          if (capped) yield* lockUser(userId)
          yield* lockGuild(guildId)
          const [locked] = yield* inviteRows(sql`SELECT * FROM guild_invites WHERE code = ${code} FOR UPDATE`)
          const invite = locked === undefined ? undefined : toInvite(locked)
          if (invite === undefined || !isLive(invite, now)) return yield* new GuildsErrors.InviteNotFound()
          const existing = yield* findMember(guildId, userId)
          if (Option.isSome(existing)) return { invite, member: existing.value, joined: false }
          const checks = yield* joinChecks(guildId, userId)
          if (checks.banned) return yield* new GuildsErrors.BannedFromGuild()
          if (capped && checks.joined >= Guild.MAX_GUILDS_PER_USER) return yield* new GuildsErrors.GuildLimitReached()
          const member: Guild.Member = { guildId, userId, nick: null, roleIds: [], joinedAt: now }
          yield* addMember(member)
          const used: Guild.Invite = { ...invite, uses: invite.uses + 1 }
          yield* used.maxUses !== 0 && used.uses >= used.maxUses
            ? run(sql`DELETE FROM guild_invites WHERE code = ${code}`)
            : run(sql`UPDATE guild_invites SET uses = uses + 1 WHERE code = ${code}`)
          return { invite: used, member, joined: true }
        })
      )

    return GuildsRepo.GuildsRepo.of({
      create,
      find: findGuild,
      update,
      transfer,
      remove,
      guildsOf: (userId) =>
        sql<{ readonly guild_id: string }>`
          SELECT guild_id::text AS guild_id FROM guild_members WHERE user_id = ${userId} ORDER BY joined_at, guild_id`.pipe(
          Effect.map((rows) => rows.map((row) => Snowflake.Snowflake.make(row.guild_id))),
          Effect.orDie
        ),
      guildsPage,
      ownsGuildsWithOthers: (userId) =>
        sql`
          SELECT 1 FROM guilds g
          WHERE g.owner_id = ${userId}
            AND EXISTS (SELECT 1 FROM guild_members m WHERE m.guild_id = g.id AND m.user_id <> ${userId})
          LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      memberCount: (guildId) =>
        Effect.map(
          countRows(sql`SELECT member_count AS n FROM guilds WHERE id = ${guildId}`),
          (rows) => rows[0]?.n ?? 0
        ),
      memberCounts,

      roles: (guildId) =>
        Effect.map(roleRows(sql`SELECT * FROM guild_roles WHERE guild_id = ${guildId} ORDER BY position, id`), (rows) =>
          rows.map(toRole)
        ),
      createRole,
      updateRole,
      deleteRole,

      channels: (guildId) =>
        Effect.map(
          channelRows(sql`SELECT * FROM guild_channels WHERE guild_id = ${guildId} ORDER BY position, id`),
          (rows) => rows.map(toChannel)
        ),
      channel: (channelId) =>
        Effect.map(channelRows(sql`SELECT * FROM guild_channels WHERE id = ${channelId}`), (rows) =>
          Option.map(Option.fromNullishOr(rows[0]), toChannel)
        ),
      createChannel,
      updateChannel,
      deleteChannel,

      member: findMember,
      members: (guildId, page) =>
        Effect.map(
          memberRows(sql`
            SELECT * FROM guild_members WHERE guild_id = ${guildId}
            ${page.after === undefined ? sql`` : sql`AND user_id > ${page.after}`}
            ORDER BY user_id LIMIT ${Math.max(0, page.limit)}`),
          (rows) => rows.map(toMember)
        ),
      join,
      updateMember,
      removeMember,

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
    })
  })
)
