/**
 * A request's two counters (the caller's global limit, then its route bucket) in one Redis round
 * trip. Each counter steps as effect's RateLimiter "fixed window" steps it in Redis (same keys,
 * values and expiries, so nodes on either path share counters): every request pushes the key's
 * expiry on by window / limit, and a request past the limit is refused without being counted. The
 * bucket is only counted once the global limit let the request through, as two calls in a row would.
 *
 * Both keys go to one script, so on Redis Cluster they would have to share a hash slot; the server
 * connects to one Redis (or a primary behind Sentinel), where that does not arise.
 */
import { Redis } from "effect/persistence"

/** Which counter answered: the global limit refused, or the bucket's count (refused when over its limit). */
export const GLOBAL_REFUSED = 0
export const BUCKET_COUNTED = 1

export interface Counter {
  readonly key: string
  readonly limit: number
  readonly windowMs: number
}

const lua = `
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
count, pttl = step(KEYS[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
return { ${BUCKET_COUNTED}, count, pttl }
`

/** Answers `[stage, count, ttlMs]`: the counter that decided, its count with this request, its expiry. */
export const script = Redis.script(
  (global: Counter, bucket: Counter) => [
    global.key,
    bucket.key,
    global.limit,
    global.windowMs / global.limit,
    bucket.limit,
    bucket.windowMs / bucket.limit
  ],
  { numberOfKeys: 2, lua }
).withReturnType<readonly [stage: number, count: number, ttlMs: number]>()
