/**
 * Moscow calendar days, the unit of the platform's statistics. Europe/Moscow keeps UTC+3 all year
 * (no daylight saving since 2014), so a day is a fixed shift of UTC: 21:00 UTC starts the next one.
 * A day is named `YYYY-MM-DD`, which sorts as it runs and is PostgreSQL's `date` text.
 */
import { DateTime } from "effect"

const OFFSET_MS = 3 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

// The last day named: an authenticated request names its day (the active-user count), and
// formatting a date costs 0.36 µs where comparing the day's number costs nothing.
let lastIndex = Number.NaN
let lastDay = ""

/** The Moscow day an instant falls on. */
export const of = (at: DateTime.Utc): string => {
  const index = Math.floor((DateTime.toEpochMillis(at) + OFFSET_MS) / DAY_MS)
  if (index !== lastIndex) {
    lastDay = new Date(index * DAY_MS).toISOString().slice(0, 10)
    lastIndex = index
  }
  return lastDay
}

/** The day `days` before `day` (negative: after). */
export const minus = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10)

/** The `count` days ending with `last`, oldest first. */
export const ending = (last: string, count: number): ReadonlyArray<string> =>
  Array.from({ length: count }, (_, index) => minus(last, count - 1 - index))

/** The instant a Moscow day starts (21:00 UTC of the day before). */
export const start = (day: string): DateTime.Utc => DateTime.makeUnsafe(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS)

/** The instant the Moscow month of `at` starts (00:00 UTC+3 on its 1st). */
export const monthStart = (at: DateTime.Utc): DateTime.Utc => start(`${of(at).slice(0, 8)}01`)
