/**
 * The memory cache's store: a Map in insertion order, so the oldest entry is the first one. Bounded,
 * because keys carry a client's search text and a client can make many: past `maxEntries` the
 * oldest entries go. Expired entries go when read, or when they are the oldest.
 */
import { Duration } from "effect"

export const DEFAULT_MAX_ENTRIES = 2000

interface Entry {
  readonly value: string
  readonly expiresAt: number
}

export interface Store {
  readonly get: (key: string, now: number) => string | undefined
  readonly set: (key: string, value: string, ttl: Duration.Duration, now: number) => void
}

export const make = (maxEntries: number): Store => {
  const entries = new Map<string, Entry>()
  return {
    get: (key, now) => {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (entry.expiresAt <= now) {
        entries.delete(key)
        return undefined
      }
      return entry.value
    },
    set: (key, value, ttl, now) => {
      const ms = Duration.toMillis(ttl)
      if (!(ms > 0)) return
      // Re-inserting moves the key to the end: it is the newest again.
      entries.delete(key)
      entries.set(key, { value, expiresAt: now + ms })
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next()
        if (oldest.done === true) break
        entries.delete(oldest.value)
      }
    }
  }
}
