/**
 * The gateway's presence in Redis, shared by every node: each change is one Lua script, so two nodes
 * never interleave inside it (a sweep claims a user exactly once; a reconnect racing the sweep either
 * keeps the user present or follows the claim). Keys under the prefix:
 *
 * - `e:{user}`: the presence (JSON `{status, activities}`); present while it exists;
 * - `s:{user}`: the user's sessions, a sorted set scored by lease expiry (ms), expiring itself with
 *   its last lease, so a crashed node's sessions lapse on their own;
 * - `ug:{user}`: the guilds the presence shows in; `g:{guild}`: the guild's visible users;
 * - `visible`: every visible user; `due`: users by the time a sweep should look at them.
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { PresenceStore } from "@veche/gateway"
import type { Snowflake } from "@veche/platform"
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { Redis } from "effect/persistence"

export interface Options {
  readonly url: Redacted.Redacted<string>
  /** Where the keys start (default `veche:presence:`). */
  readonly prefix?: string
}

/** Users a sweep claims at most at once (the next sweep takes the rest). */
const SWEEP_BATCH = 500

const PUT = `
local p, u = ARGV[1], ARGV[2]
local ek = p .. 'e:' .. u
local before = redis.call('GET', ek)
local sid = ARGV[5]
if (not before) and sid == '' then return false end
if sid ~= '' then
  local untilMs = tonumber(ARGV[6])
  local sk = p .. 's:' .. u
  redis.call('ZADD', sk, untilMs, sid)
  local top = tonumber(redis.call('ZRANGE', sk, -1, -1, 'WITHSCORES')[2])
  redis.call('PEXPIRE', sk, math.max(1, top - tonumber(ARGV[7])))
  local due = redis.call('ZSCORE', p .. 'due', u)
  if (not due) or tonumber(due) < untilMs then redis.call('ZADD', p .. 'due', untilMs, u) end
end
redis.call('SET', ek, ARGV[3])
local gk = p .. 'ug:' .. u
for _, g in ipairs(redis.call('SMEMBERS', gk)) do redis.call('SREM', p .. 'g:' .. g, u) end
redis.call('DEL', gk)
for i = 8, #ARGV do redis.call('SADD', gk, ARGV[i]) end
if ARGV[4] == '1' then
  redis.call('SADD', p .. 'visible', u)
  for i = 8, #ARGV do redis.call('SADD', p .. 'g:' .. ARGV[i], u) end
else
  redis.call('SREM', p .. 'visible', u)
end
return before
`

const REFRESH = `
local p, now, untilMs = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local lost = {}
for i = 4, #ARGV, 2 do
  local u, sid = ARGV[i], ARGV[i + 1]
  local sk = p .. 's:' .. u
  if redis.call('ZSCORE', sk, sid) then
    redis.call('ZADD', sk, untilMs, sid)
    local top = tonumber(redis.call('ZRANGE', sk, -1, -1, 'WITHSCORES')[2])
    redis.call('PEXPIRE', sk, math.max(1, top - now))
    local due = redis.call('ZSCORE', p .. 'due', u)
    if (not due) or tonumber(due) < untilMs then redis.call('ZADD', p .. 'due', untilMs, u) end
  else
    table.insert(lost, sid)
  end
end
return lost
`

const END = `
local p, u, sid, now, graceUntil = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local sk = p .. 's:' .. u
redis.call('ZREM', sk, sid)
redis.call('ZREMRANGEBYSCORE', sk, '-inf', now)
if redis.call('ZCARD', sk) == 0 and redis.call('EXISTS', p .. 'e:' .. u) == 1 then
  redis.call('ZADD', p .. 'due', graceUntil, u)
end
return 1
`

const SWEEP = `
local p, now, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])
local out = {}
for _, u in ipairs(redis.call('ZRANGEBYSCORE', p .. 'due', '-inf', now, 'LIMIT', 0, limit)) do
  local sk = p .. 's:' .. u
  redis.call('ZREMRANGEBYSCORE', sk, '-inf', now)
  local last = redis.call('ZRANGE', sk, -1, -1, 'WITHSCORES')
  if #last > 0 then
    redis.call('ZADD', p .. 'due', last[2], u)
  else
    redis.call('ZREM', p .. 'due', u)
    local entry = redis.call('GET', p .. 'e:' .. u)
    local guilds = redis.call('SMEMBERS', p .. 'ug:' .. u)
    for _, g in ipairs(guilds) do redis.call('SREM', p .. 'g:' .. g, u) end
    redis.call('DEL', p .. 'e:' .. u, sk, p .. 'ug:' .. u)
    redis.call('SREM', p .. 'visible', u)
    if entry then
      table.insert(out, u)
      table.insert(out, entry)
      table.insert(out, table.concat(guilds, ','))
    end
  end
end
return out
`

const JOIN = `
local p, u, g = ARGV[1], ARGV[2], ARGV[3]
if redis.call('EXISTS', p .. 'e:' .. u) == 0 then return 0 end
redis.call('SADD', p .. 'ug:' .. u, g)
if redis.call('SISMEMBER', p .. 'visible', u) == 1 then return redis.call('SADD', p .. 'g:' .. g, u) end
return 0
`

const LEAVE = `
local p, u, g = ARGV[1], ARGV[2], ARGV[3]
redis.call('SREM', p .. 'ug:' .. u, g)
redis.call('SREM', p .. 'g:' .. g, u)
return 1
`

const COUNTS = `
local out = {}
for i = 2, #ARGV do out[i - 1] = redis.call('SCARD', ARGV[1] .. 'g:' .. ARGV[i]) end
return out
`

const Activity = Schema.Struct({
  type: Schema.Number,
  name: Schema.String,
  state: Schema.optionalKey(Schema.NullOr(Schema.String)),
  url: Schema.optionalKey(Schema.NullOr(Schema.String)),
  emoji: Schema.optionalKey(Schema.NullOr(Schema.Struct({ name: Schema.String })))
})
const Entry = Schema.Struct({
  status: Schema.Literals(["online", "idle", "dnd", "invisible"]),
  activities: Schema.Array(Activity)
})
const decodeEntry = Schema.decodeUnknownOption(Schema.fromJsonString(Entry))

const strings = (value: unknown): ReadonlyArray<string> =>
  Array.isArray(value) ? value.map((item) => (typeof item === "string" ? item : String(item))) : []

export const layer = (options: Options): Layer.Layer<PresenceStore.PresenceStore, Redis.RedisError> =>
  Layer.effect(
    PresenceStore.PresenceStore,
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const prefix = options.prefix ?? "veche:presence:"
      const run = (script: string, ...args: ReadonlyArray<string | number>) =>
        redis.send("EVAL", script, "0", prefix, ...args.map(String))
      // Redis away: presence reads as nobody online and changes are dropped (logged), rather than
      // failing gateway sessions or routes over a count.
      const orElse = <A>(effect: Effect.Effect<A, Redis.RedisError>, fallback: A) =>
        effect.pipe(
          Effect.catch((error) => Effect.as(Effect.logWarning("gateway presence: Redis failed", error), fallback))
        )

      return PresenceStore.PresenceStore.of({
        put: (userId, entry, guildIds, session) =>
          orElse(
            Effect.map(
              run(
                PUT,
                userId,
                JSON.stringify(entry),
                entry.status === "invisible" ? "0" : "1",
                session?.id ?? "",
                session?.until ?? 0,
                session?.now ?? 0,
                ...guildIds
              ),
              (before) => (typeof before === "string" ? decodeEntry(before) : Option.none())
            ),
            Option.none()
          ),
        refresh: (sessions, now, until) =>
          sessions.length === 0
            ? Effect.succeed([])
            : orElse(
                Effect.map(
                  run(REFRESH, now, until, ...sessions.flatMap((session) => [session.userId, session.sessionId])),
                  strings
                ),
                []
              ),
        end: (userId, sessionId, now, graceUntil) =>
          orElse(Effect.asVoid(run(END, userId, sessionId, now, graceUntil)), undefined),
        sweep: (now) =>
          orElse(
            Effect.map(run(SWEEP, now, SWEEP_BATCH), (reply) => {
              const flat = strings(reply)
              const claimed: Array<PresenceStore.Claimed> = []
              for (let i = 0; i + 2 < flat.length; i += 3) {
                const entry = decodeEntry(flat[i + 1])
                if (Option.isNone(entry)) continue
                const guilds = flat[i + 2] ?? ""
                claimed.push({
                  userId: flat[i] as Snowflake.Snowflake,
                  entry: entry.value,
                  guildIds: guilds === "" ? [] : (guilds.split(",") as Array<Snowflake.Snowflake>)
                })
              }
              return claimed
            }),
            []
          ),
        get: (userIds) =>
          userIds.length === 0
            ? Effect.succeed(new Map())
            : orElse(
                Effect.map(redis.send("MGET", ...userIds.map((id) => `${prefix}e:${id}`)), (reply) => {
                  const found = new Map<Snowflake.Snowflake, PresenceStore.Entry>()
                  const values = Array.isArray(reply) ? reply : []
                  userIds.forEach((userId, index) => {
                    const value: unknown = values[index]
                    if (typeof value !== "string") return
                    const entry = decodeEntry(value)
                    if (Option.isSome(entry)) found.set(userId, entry.value)
                  })
                  return found
                }),
                new Map()
              ),
        joinGuild: (userId, guildId) =>
          orElse(
            Effect.map(run(JOIN, userId, guildId), (reply) => Number(reply) === 1),
            false
          ),
        leaveGuild: (userId, guildId) => orElse(Effect.asVoid(run(LEAVE, userId, guildId)), undefined),
        visibleIn: (guildId) =>
          orElse(
            Effect.map(
              redis.send("SMEMBERS", `${prefix}g:${guildId}`),
              (reply) => strings(reply) as Array<Snowflake.Snowflake>
            ),
            []
          ),
        guildCounts: (guildIds) =>
          guildIds.length === 0
            ? Effect.succeed(new Map())
            : orElse(
                Effect.map(redis.send("EVAL", COUNTS, "0", prefix, ...guildIds), (reply) => {
                  const counts = Array.isArray(reply) ? reply : []
                  return new Map(guildIds.map((id, index) => [id, Number(counts[index] ?? 0) || 0]))
                }),
                new Map(guildIds.map((id) => [id, 0]))
              ),
        onlineCount: orElse(
          Effect.map(redis.send("SCARD", `${prefix}visible`), (reply) => Number(reply ?? 0) || 0),
          0
        )
      })
    })
  ).pipe(Layer.provide(NodeRedis.layer({ url: Redacted.value(options.url) })))
