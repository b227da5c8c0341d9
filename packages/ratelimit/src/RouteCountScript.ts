/**
 * A request's counters (the caller's global limit, its network's when it has one, then its route
 * bucket) in one Redis round trip. Each counter steps as effect's RateLimiter "fixed window" steps it in Redis (same keys,
 * values and expiries, so nodes on either path share counters): every request pushes the key's
 * expiry on by window / limit, and a request past the limit is refused without being counted. The
 * bucket is only counted once the global limits let the request through, as calls in a row would.
 * The network counter (an IPv6 /48, `AddressGroups`) is a third key only when the caller has one.
 *
 * `lua` counts one request; `batchLua` (what `RouteLimiter.layerRedis` runs) counts several in a row
 * in one call and answers what `lua` called once for each would (a test walks both side by side).
 *
 * All keys go to one script, so on Redis Cluster they would have to share a hash slot; the server
 * connects to one Redis (or a primary behind Sentinel), where that does not arise.
 */
import { Redis } from "effect/persistence"

/** Which counter answered: a global limit (the caller's or its network's) refused, or the bucket's count (refused when over its limit). */
export const GLOBAL_REFUSED = 0
export const BUCKET_COUNTED = 1

export interface Counter {
  readonly key: string
  readonly limit: number
  readonly windowMs: number
}

export const lua = `
local function step(key, limit, refillms)
  local current = tonumber(redis.call("GET", key))
  if not current then
    local pttl = math.max(1, math.ceil(refillms))
    redis.call("SET", key, 1, "PX", pttl)
    return 1, pttl
  end
  local pttl = tonumber(redis.call("PTTL", key))
  if pttl < 0 then pttl = 0 end
  local nextcount = current + 1
  if nextcount > limit then return nextcount, pttl end
  local nextpttl = math.max(1, math.ceil(pttl + refillms))
  redis.call("SET", key, nextcount, "PX", nextpttl)
  return nextcount, nextpttl
end

local globallimit = tonumber(ARGV[1])
local count, pttl = step(KEYS[1], globallimit, tonumber(ARGV[2]))
if count > globallimit then return { ${GLOBAL_REFUSED}, count, pttl } end
if KEYS[3] then
  local networklimit = tonumber(ARGV[5])
  count, pttl = step(KEYS[3], networklimit, tonumber(ARGV[6]))
  if count > networklimit then return { ${GLOBAL_REFUSED}, count, pttl } end
end
count, pttl = step(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
return { ${BUCKET_COUNTED}, count, pttl }
`

/**
 * The counts of several requests in one script call (`RouteLimiter.layerRedis` sends the counts of
 * one event-loop turn together), stepped in the order given, each exactly as `lua` steps one:
 * global, then network, then bucket, a refused step not counted. Each key is read once (one MGET)
 * and written once at the end (SET PX) with the value and expiry the calls in a row would have
 * left: inside one script Redis's clock does not move, so a key's PTTL right after `SET PX n` is n,
 * and the steps in memory answer what the calls would have. The PTTL of a key is read only when it
 * exists and is stepped.
 *
 * KEYS: every key of the batch once (`RouteCountBatch` gathers them).
 * ARGV: global limit, global refill ms, network limit, network refill ms; the number of plans, then
 * per plan its global, bucket and network key (indices into KEYS from 1; network 0 for none), its
 * bucket's limit and refill ms; then per run of requests its plan (from 1) and how many requests.
 * Answers `stage, count, ttlMs` per request, one flat array.
 */
export const batchLua = `
local values = redis.call("MGET", unpack(KEYS))
local count, pttl, dirty = {}, {}, {}
for i = 1, #KEYS do count[i] = tonumber(values[i]) or false end

local function step(i, limit, refillms)
  local current = count[i]
  if not current then
    local p = math.max(1, math.ceil(refillms))
    count[i] = 1
    pttl[i] = p
    dirty[i] = true
    return 1, p
  end
  local p = pttl[i]
  if p == nil then
    p = tonumber(redis.call("PTTL", KEYS[i]))
    if p < 0 then p = 0 end
    pttl[i] = p
  end
  local nextcount = current + 1
  if nextcount > limit then return nextcount, p end
  local nextpttl = math.max(1, math.ceil(p + refillms))
  count[i] = nextcount
  pttl[i] = nextpttl
  dirty[i] = true
  return nextcount, nextpttl
end

local globallimit = tonumber(ARGV[1])
local globalrefill = tonumber(ARGV[2])
local networklimit = tonumber(ARGV[3])
local networkrefill = tonumber(ARGV[4])
local g, b, w, l, r = {}, {}, {}, {}, {}
local a = 6
for p = 1, tonumber(ARGV[5]) do
  g[p] = tonumber(ARGV[a])
  b[p] = tonumber(ARGV[a + 1])
  w[p] = tonumber(ARGV[a + 2])
  l[p] = tonumber(ARGV[a + 3])
  r[p] = tonumber(ARGV[a + 4])
  a = a + 5
end
local out = {}
local o = 0
for x = a, #ARGV, 2 do
  local p = tonumber(ARGV[x])
  local gi, bi, wi, limit, refill = g[p], b[p], w[p], l[p], r[p]
  for _ = 1, tonumber(ARGV[x + 1]) do
    local stage = ${BUCKET_COUNTED}
    local c, t = step(gi, globallimit, globalrefill)
    if c > globallimit then
      stage = ${GLOBAL_REFUSED}
    elseif wi > 0 then
      c, t = step(wi, networklimit, networkrefill)
      if c > networklimit then stage = ${GLOBAL_REFUSED} end
    end
    if stage == ${BUCKET_COUNTED} then c, t = step(bi, limit, refill) end
    out[o + 1] = stage
    out[o + 2] = c
    out[o + 3] = t
    o = o + 3
  end
end
for i = 1, #KEYS do
  if dirty[i] then redis.call("SET", KEYS[i], count[i], "PX", pttl[i]) end
end
return out
`

/** What the script answers: the counter that decided, its count with this request, its expiry. */
export type Counted = readonly [stage: number, count: number, ttlMs: number]

/**
 * The script's arguments after its keys, as `script` passes them (`String` of each number): the
 * limits are fixed per bucket, so the layer builds them once rather than on every request.
 */
export const argsOf = (counter: Omit<Counter, "key">): readonly [limit: string, refillMs: string] => [
  String(counter.limit),
  String(counter.windowMs / counter.limit)
]

/** Answers `[stage, count, ttlMs]`: the counter that decided, its count with this request, its expiry. */
export const script = Redis.script(
  (global: Counter, bucket: Counter, network?: Counter) => [
    global.key,
    bucket.key,
    ...(network === undefined ? [] : [network.key]),
    global.limit,
    global.windowMs / global.limit,
    bucket.limit,
    bucket.windowMs / bucket.limit,
    ...(network === undefined ? [] : [network.limit, network.windowMs / network.limit])
  ],
  { numberOfKeys: (_global, _bucket, network) => (network === undefined ? 2 : 3), lua }
).withReturnType<Counted>()
