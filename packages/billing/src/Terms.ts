/**
 * Terms in calendar months: a purchase or grant extends what is left (or starts now when nothing
 * is left). The day of the month is kept where it exists, else the month's last day (31 January +
 * 1 month = 28/29 February), as PostgreSQL's interval arithmetic does; both stores compute it
 * here, so memory and PostgreSQL agree to the millisecond.
 */
import { DateTime } from "effect"

export const addMonths = (from: DateTime.Utc, months: number): DateTime.Utc => {
  const date = DateTime.toDateUtc(from)
  const year = date.getUTCFullYear()
  const month = date.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate()
  const shifted = new Date(date.getTime())
  shifted.setUTCDate(1)
  shifted.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay))
  return DateTime.fromDateUnsafe(shifted)
}

/** The end after adding `months` to what is left at `now` (or to `now`). */
export const extend = (current: DateTime.Utc | null, now: DateTime.Utc, months: number): DateTime.Utc =>
  addMonths(current !== null && DateTime.isGreaterThan(current, now) ? current : now, months)
