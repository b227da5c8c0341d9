/**
 * A statement of the token lookup's shape (a digest and a time as its only inputs) compiled once,
 * when the repository is built, instead of on every call: the lookup runs on every authenticated
 * request, and its template is some twenty fragments whose SQL text is the same each time. Each
 * call then binds its values to the prepared text in the places the compiler gave them.
 */
import { DateTime } from "effect"
import type { SqlClient, Statement } from "effect/sql"

type Build = (digest: string, now: DateTime.Utc) => Statement.Statement<unknown>

// Stand-ins the compiled parameters are recognised by: the digest's and the time's places.
const DIGEST = "\u0000prebuilt-digest"
const NOW = DateTime.makeUnsafe(0)
const NOW_DATE = DateTime.toDateUtc(NOW)

export const statement = (
  sql: SqlClient.SqlClient,
  build: Build
): ((digest: string, now: DateTime.Utc) => Statement.Statement<object>) => {
  const [text, params] = build(DIGEST, NOW).compile()
  const places = params.map((param) => {
    if (param === DIGEST) return "digest" as const
    if (param instanceof Date && param.getTime() === NOW_DATE.getTime()) return "now" as const
    throw new Error(`PrebuiltStatement: a parameter that is neither the digest nor the time: ${String(param)}`)
  })
  return (digest, now) => {
    const date = DateTime.toDateUtc(now)
    return sql.unsafe(
      text,
      places.map((place) => (place === "digest" ? digest : date))
    )
  }
}
