/**
 * A second floor for `POST /api/v10/auth/login`, beside the bare verify loop: the least a login can
 * do over HTTP, written by hand with plain node:http, `pg` and `@node-rs/argon2`. It does what the
 * server must do for a right password and nothing else: parse the JSON body, the account's lookup
 * (PgAccountsRepo's login statement: the account with its block and TOTP record), the argon2id
 * verify, the session's start (PgSessionsRepo.create's one statement inserting the session and its
 * two tokens; random tokens whose SHA-256 digests are stored, as Tokens.ts), the token pair as JSON.
 * No quotas, captcha, rate limits, access log or framework. Same pool size as the server's (10),
 * prepared statements; hashes on the server's hash threads (`HashThreads`, one a CPU as the
 * server's default), each with one call queued beside the one it runs as the server's hasher
 * allows, the rest waiting their turn here.
 *
 * Issue 22 asks login for 0.90 of the verify loop; this tells how much of what keeps it from that
 * is about what any minimal server pays (PostgreSQL, the kernel and argon2id sharing the cores, and
 * a plain HTTP server and driver) and how much is the reference server's own work. `bench/run.ts` reports it as a
 * row of its own (BENCH_ONLY=login).
 *
 *   PORT  DATABASE_URL  DATABASE_SCHEMA
 */
import { createHash, randomBytes } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { createRequire } from "node:module"
import * as path from "node:path"
import { forTheCpus } from "../../adapters/argon2/src/Concurrency.ts"
import * as HashThreads from "../../adapters/argon2/src/HashThreads.ts"
import * as Pg from "../lib/Pg.ts"
import { answer, failed, listen } from "../lib/PgFloor.ts"

interface Argon2 {
  readonly verify: (hashed: string, password: Uint8Array) => Promise<boolean>
}
// The server's copy, as the verify loop's (a dependency of @veche/argon2, not of the root).
const argon2: Argon2 = createRequire(path.resolve(import.meta.dirname, "../../adapters/argon2/package.json"))(
  "@node-rs/argon2"
)

/** The server's default: a thread a CPU, each with one call queued; the others queue here in arrival order. */
const threads = HashThreads.make(forTheCpus())
const hashes = { running: 0, limit: threads.permits, waiting: [] as Array<() => void> }
const verifyBounded = async (hashed: string, password: Uint8Array): Promise<boolean> => {
  if (hashes.running >= hashes.limit) await new Promise<void>((resolve) => hashes.waiting.push(resolve))
  else hashes.running++
  try {
    return await threads.verify(hashed, password)
  } finally {
    // The permit passes straight to the next in line, or is returned.
    const next = hashes.waiting.shift()
    if (next === undefined) hashes.running--
    else next()
  }
}

const port = Number(process.env.PORT ?? 0)
const pool = Pg.pool(process.env.DATABASE_URL ?? "", { schema: process.env.DATABASE_SCHEMA ?? "public", max: 10 })

/** SessionsConfig.defaults: access tokens live 15 minutes, sessions 60 days. */
const ACCESS_TTL_MS = 15 * 60_000
const SESSION_TTL_MS = 60 * 24 * 60 * 60_000
/** Snowflake ids as the platform's (ms since 2015 above 22 bits of worker and sequence). */
const EPOCH_MS = 1_420_070_400_000n
let sequence = 0n
const nextId = () => {
  sequence = (sequence + 1n) & 0xfffn
  return ((BigInt(Date.now()) - EPOCH_MS) << 22n) | sequence
}

interface LoginRow {
  readonly id: string
  readonly password_hash: string
  readonly password_changed_at: Date | null
  readonly block_reason: string | null
  readonly totp_enabled_at: Date | null
}

const badCredentials = (response: ServerResponse) =>
  answer(response, 401, '{"message":"Login or password is invalid.","code":50014}')

const bodyOf = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const token = (prefix: string) => {
  const value = `${prefix}${randomBytes(32).toString("base64url")}`
  return { value, digest: createHash("sha256").update(value).digest("hex") }
}

const login = async (request: IncomingMessage, response: ServerResponse) => {
  const body = JSON.parse(await bodyOf(request)) as { login?: unknown; password?: unknown }
  if (typeof body.login !== "string" || typeof body.password !== "string") return badCredentials(response)
  const { rows } = await pool.query<LoginRow>({
    name: "login-lookup",
    text: `SELECT u.id, u.username, u.display_name, u.created_at AS user_created_at,
                  c.phone, c.email, c.email_verified, c.password_hash,
                  to_char(c.date_of_birth, 'YYYY-MM-DD') AS date_of_birth, c.created_at, c.password_changed_at,
                  b.reason AS block_reason, b.until AS block_until, b.blocked_by AS block_by,
                  b.created_at AS block_created_at,
                  t.secret_envelope AS totp_secret_envelope, t.last_step AS totp_last_step,
                  t.enabled_at AS totp_enabled_at
           FROM credentials c JOIN users u ON u.id = c.user_id
           LEFT JOIN account_blocks b ON b.user_id = c.user_id
           LEFT JOIN mfa_totp t ON t.user_id = c.user_id
           WHERE c.phone = $1`,
    values: [body.login]
  })
  const account = rows[0]
  if (account === undefined) return badCredentials(response)
  if (!(await verifyBounded(account.password_hash, new TextEncoder().encode(body.password))))
    return badCredentials(response)
  if (account.block_reason !== null || account.totp_enabled_at !== null)
    return answer(response, 403, '{"message":"not in this floor","code":0}')
  const now = Date.now()
  const access = token("vat_")
  const refresh = token("vrt_")
  await pool.query({
    name: "login-session",
    text: `WITH session AS (
             INSERT INTO sessions (id, user_id, user_agent, address, country, created_at, last_used_at,
                                   expires_at, revoked_at, password_changed_at)
             VALUES ($1, $2, $3, $4, NULL, $5, $5, $6, NULL, $7)
             RETURNING id AS session_id)
           INSERT INTO session_tokens (digest, session_id, kind, expires_at, used_at)
           SELECT $8, session_id, 'access', $9::timestamptz, NULL::timestamptz FROM session
           UNION ALL
           SELECT $10, session_id, 'refresh', NULL::timestamptz, NULL::timestamptz FROM session`,
    values: [
      nextId().toString(),
      account.id,
      request.headers["user-agent"] ?? null,
      request.headers["x-forwarded-for"] ?? request.socket.remoteAddress ?? null,
      new Date(now),
      new Date(now + SESSION_TTL_MS),
      account.password_changed_at,
      access.digest,
      new Date(now + ACCESS_TTL_MS),
      refresh.digest
    ]
  })
  answer(
    response,
    200,
    JSON.stringify({
      access_token: access.value,
      refresh_token: refresh.value,
      token_type: "Bearer",
      expires_in: ACCESS_TTL_MS / 1000,
      user_id: account.id
    })
  )
}

// libuv starts its pool's threads at the first work queued: before listening, so they exist when
// the bench pins the main thread (bench/lib/Pinning.ts) and keep every CPU, as the server's do. The
// hash threads start at the first login, as the server's; the bench gives them every CPU back.
await argon2.verify("$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$8EvPqLHWbhMwFs+bsAcfaQ", new Uint8Array(1))

listen(port, pool, (request, response) => {
  if (request.method !== "POST" || request.url !== "/api/v10/auth/login") return false
  login(request, response).catch(failed(response))
  return true
})
