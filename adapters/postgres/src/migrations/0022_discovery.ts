/**
 * The catalogue: one listing per guild ever published (its slug unique and kept for good) and
 * users' reports of listings (one per user and guild). Search runs over `search_text` (name,
 * description, tags) in two ways: full text in the simple, Russian and English configurations (a
 * generated tsvector, GIN-indexed) and trigram similarity for typos (pg_trgm, GIN-indexed) over
 * `search_latin`, the same text with Russian letters in Latin ones: pg_trgm ignores non-ASCII
 * letters in a database whose character type is C (the embedded PostgreSQL's), Latin ones never.
 *
 * pg_trgm goes in a schema of its own (`veche_extensions`), not the tables' schema: extensions are
 * per database, and a schema dropped with its tables (tests drop theirs) would take it along for
 * everyone. If it is already installed elsewhere, that schema is used (found by the repository).
 * Creating it is serialised by an advisory lock: two schemas migrating at once would race.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(hashtextextended('veche:extensions', 0))`
      yield* sql`CREATE SCHEMA IF NOT EXISTS veche_extensions`
      yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA veche_extensions`
    })
  )
  const [found] = yield* sql<{ readonly schema: string }>`
    SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm'`
  const trgm = sql(found?.schema ?? "veche_extensions")
  yield* sql`
    CREATE TABLE discovery_listings (
      guild_id    BIGINT PRIMARY KEY REFERENCES guilds (id) ON DELETE CASCADE,
      owner_id    BIGINT NOT NULL,
      slug        TEXT NOT NULL UNIQUE,
      state       TEXT NOT NULL CHECK (state IN ('not_listed', 'listed', 'auto_hidden', 'removed')),
      category    TEXT NOT NULL,
      tags        JSONB NOT NULL,
      description TEXT NOT NULL,
      name        TEXT NOT NULL,
      reason      TEXT,
      updated_at  TIMESTAMPTZ NOT NULL,
      search_text TEXT NOT NULL,
      search_latin TEXT NOT NULL,
      search_vector TSVECTOR GENERATED ALWAYS AS (
        to_tsvector('simple'::regconfig, search_text) ||
        to_tsvector('russian'::regconfig, search_text) ||
        to_tsvector('english'::regconfig, search_text)
      ) STORED
    )`
  yield* sql`CREATE INDEX discovery_listings_owner ON discovery_listings (owner_id) WHERE state IN ('listed', 'auto_hidden')`
  yield* sql`CREATE INDEX discovery_listings_state ON discovery_listings (state, category)`
  yield* sql`CREATE INDEX discovery_listings_fts ON discovery_listings USING gin (search_vector)`
  yield* sql`CREATE INDEX discovery_listings_trgm ON discovery_listings USING gin (search_latin ${trgm}.gin_trgm_ops)`
  yield* sql`
    CREATE TABLE discovery_reports (
      guild_id   BIGINT NOT NULL REFERENCES discovery_listings (guild_id) ON DELETE CASCADE,
      user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      reason     TEXT NOT NULL,
      open       BOOLEAN NOT NULL DEFAULT true,
      created_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (guild_id, user_id)
    )`
  yield* sql`CREATE INDEX discovery_reports_open ON discovery_reports (guild_id) WHERE open`
})
