/**
 * Giving units back to a fixed-window counter in Redis without ever creating one. effect's
 * fixed-window script, handed a negative count for a key it does not have (the unit's counter
 * expired while the guess that took it was judged), stores that negative count for a millisecond:
 * a use arriving then counts from it, and the fresh window holds more than the quota. Here a
 * missing or expired key stays missing; otherwise the count and the expiry step back as effect's
 * script steps them, and a counter brought to zero (or to an expiry already past) is deleted.
 */
import { Redis } from "effect/persistence"

const lua = `
local key = KEYS[1]
local tokens = tonumber(ARGV[1])
local refillms = tonumber(ARGV[2])
local current = tonumber(redis.call("GET", key))
local pttl = tonumber(redis.call("PTTL", key))
if not current or pttl <= 0 then return { "0", 0 } end
local nextcount = current + tokens
local nextpttl = math.ceil(pttl + (refillms * tokens))
if nextcount <= 0 or nextpttl <= 0 then
  redis.call("DEL", key)
  return { "0", 0 }
end
redis.call("SET", key, nextcount, "PX", nextpttl)
return { string.format("%.17g", nextcount), nextpttl }
`

/** Answers `[count, ttlMs]` after the give-back, as effect's fixed-window script answers (`0, 0`: no counter). */
export const script = Redis.script((key: string, tokens: number, refillMs: number) => [key, tokens, refillMs], {
  numberOfKeys: 1,
  lua
}).withReturnType<readonly [count: string, ttlMs: number]>()
