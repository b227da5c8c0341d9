/**
 * The floor for `GET /api/v10/users/@me`: plain node:http and `pg` doing the same SQL work as the
 * server by the most direct means: SHA-256 of the bearer token (as Tokens.ts), the access-token
 * lookup (PgSessionsRepo.findAccess, with its touch rule), the user read (PgUsersRepo.findById), the
 * same JSON. Same pool size as the server's (@effect/sql-pg's default, 10) and, like it, prepared
 * statements. Not to be tuned down: it is what the reference server is measured against.
 *
 *   PORT  DATABASE_URL  DATABASE_SCHEMA
 */
import { createHash } from "node:crypto"
import type { ServerResponse } from "node:http"
import * as Pg from "../lib/Pg.ts"
import { answer, failed, listen } from "../lib/PgFloor.ts"

const port = Number(process.env.PORT ?? 0)
const pool = Pg.pool(process.env.DATABASE_URL ?? "", { schema: process.env.DATABASE_SCHEMA ?? "public", max: 10 })

/** SessionsConfig.defaults.touchEvery: last use is written at most this often per session. */
const TOUCH_EVERY_MS = 5 * 60_000

interface AccessRow {
  readonly session_id: string
  readonly user_id: string
  readonly token_expires_at: Date | null
  readonly last_used_at: Date
}
interface UserRow {
  readonly id: string
  readonly username: string
  readonly display_name: string | null
}

const unauthorized = (response: ServerResponse) => answer(response, 401, '{"message":"401: Unauthorized","code":0}')

const me = async (authorization: string | undefined, response: ServerResponse) => {
  const match = /^(\S+) +(\S+)\s*$/.exec(authorization ?? "")
  const token = match?.[2]
  if (match?.[1]?.toLowerCase() !== "bearer" || token === undefined || !token.startsWith("vat_")) {
    return unauthorized(response)
  }
  const digest = createHash("sha256").update(token).digest("hex")
  const now = new Date()
  const { rows: access } = await pool.query<AccessRow>({
    name: "find-access",
    text: `SELECT t.session_id, s.user_id, t.expires_at AS token_expires_at, s.last_used_at
           FROM session_tokens t JOIN sessions s ON s.id = t.session_id
           WHERE t.digest = $1 AND t.kind = 'access' AND s.revoked_at IS NULL AND s.expires_at > $2`,
    values: [digest, now]
  })
  const grant = access[0]
  if (grant === undefined) return unauthorized(response)
  if (grant.token_expires_at !== null && grant.token_expires_at.getTime() <= now.getTime()) {
    return unauthorized(response)
  }
  if (now.getTime() - grant.last_used_at.getTime() >= TOUCH_EVERY_MS) {
    await pool.query({
      name: "touch",
      text: "UPDATE sessions SET last_used_at = $1 WHERE id = $2",
      values: [now, grant.session_id]
    })
  }
  const { rows: users } = await pool.query<UserRow>({
    name: "find-user",
    text: "SELECT id, username, display_name, created_at FROM users WHERE id = $1",
    values: [grant.user_id]
  })
  const user = users[0]
  if (user === undefined) return answer(response, 404, '{"message":"Unknown User","code":10013}')
  answer(
    response,
    200,
    JSON.stringify({
      id: user.id,
      username: user.username,
      discriminator: "0",
      global_name: user.display_name,
      avatar: null,
      bot: false
    })
  )
}

listen(port, pool, (request, response) => {
  if (request.method !== "GET" || (request.url !== "/api/v10/users/@me" && request.url !== "/api/v10/users/%40me"))
    return false
  me(request.headers.authorization, response).catch(failed(response))
  return true
})
