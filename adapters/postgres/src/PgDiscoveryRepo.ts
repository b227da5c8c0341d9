/**
 * DiscoveryRepo on PostgreSQL (`discovery_listings`, `discovery_reports`, migration 0022; the
 * catalogue check's `hidden_for` and `checked_at`, migration 0027).
 *
 * - Publication takes an advisory lock on the owner (in its own namespace) in one transaction, so
 *   concurrent publications count what the others inserted: at most three public guilds per owner.
 * - Search: full text in the simple, Russian and English configurations (stems: "шахматах" finds
 *   "шахматы", "servers" finds "server") or pg_trgm's word similarity over the whole text,
 *   transliterated to Latin letters so it works whatever the database's character type (typos:
 *   "шахмты" finds "Шахматы", "minecarft" finds "Minecraft"), ranked by both.
 * - A report and the auto-hide it may trigger run in one transaction holding the listing's row.
 */
import { DiscoveryErrors, DiscoveryRepo, type Listing, Slugs } from "@veche/discovery"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as DecodedRows from "./internal/DecodedRows.ts"
import { idArray } from "./internal/IdArray.ts"

const Row = Schema.Struct({
  guild_id: Schema.BigInt,
  owner_id: Schema.BigInt,
  slug: Schema.String,
  state: Schema.Literals(["not_listed", "listed", "auto_hidden", "removed"]),
  category: Schema.String,
  tags: Schema.Array(Schema.String),
  description: Schema.String,
  name: Schema.String,
  reason: Schema.NullOr(Schema.String),
  hidden_for: Schema.NullOr(Schema.Literals(["conditions", "reports", "staff"])),
  updated_at: Schema.Date
})

const toListing = (row: typeof Row.Type): Listing.Listing => ({
  guildId: Snowflake.Snowflake.make(String(row.guild_id)),
  ownerId: Snowflake.Snowflake.make(String(row.owner_id)),
  slug: row.slug,
  state: row.state,
  category: row.category,
  tags: row.tags,
  description: row.description,
  name: row.name,
  reason: row.reason,
  hiddenFor: row.hidden_for,
  updatedAt: DateTime.fromDateUnsafe(row.updated_at)
})

const COLUMNS = "guild_id, owner_id, slug, state, category, tags, description, name, reason, hidden_for, updated_at"

/** The rows the catalogue check looks at (DiscoveryRepo.isCheckable). */
const CHECKABLE = "(state = 'listed' OR (state = 'auto_hidden' AND hidden_for = 'conditions'))"

/** What search looks through: the name, the description and the tags, in lower case. */
const searchText = (name: string, description: string, tags: ReadonlyArray<string>) =>
  `${name} ${description} ${tags.join(" ")}`.toLowerCase()

/** Word similarity above which a guild matches a query with a typo (pg_trgm's own default is 0.6). */
const SIMILAR = 0.45

export const layer: Layer.Layer<DiscoveryRepo.DiscoveryRepo, never, SqlClient.SqlClient> = Layer.effect(
  DiscoveryRepo.DiscoveryRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    // Where pg_trgm lives (migration 0022 put it in veche_extensions unless it was already elsewhere).
    const [found] = yield* sql<{ readonly schema: string }>`
      SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'pg_trgm'`.pipe(Effect.orDie)
    const trgm = sql(found?.schema ?? "veche_extensions")

    const { many, one } = DecodedRows.of(Row, toListing)

    const publish: DiscoveryRepo.DiscoveryRepo["Service"]["publish"] = (publication, maxPublic) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`discovery:${publication.ownerId}`}, 0))`
            const existing = yield* one(
              sql`SELECT ${columns} FROM discovery_listings WHERE guild_id = ${publication.guildId} FOR UPDATE`
            )
            const alreadyPublic = Option.exists(
              existing,
              (listing) => listing.state === "listed" || listing.state === "auto_hidden"
            )
            if (!alreadyPublic) {
              const [counted] = yield* sql<{ readonly n: number }>`
                SELECT count(*)::int AS n FROM discovery_listings
                WHERE owner_id = ${publication.ownerId} AND guild_id <> ${publication.guildId}
                  AND state IN ('listed', 'auto_hidden')`
              if ((counted?.n ?? 0) >= maxPublic) return yield* new DiscoveryErrors.PublicLimitReached()
            }
            const text = searchText(publication.name, publication.description, publication.tags)
            const updatedAt = DateTime.toDateUtc(publication.now)
            if (Option.isSome(existing)) {
              return yield* one(sql`
                UPDATE discovery_listings SET
                  owner_id = ${publication.ownerId},
                  state = CASE WHEN state = 'not_listed' THEN 'listed' ELSE state END,
                  reason = CASE WHEN state = 'not_listed' THEN NULL ELSE reason END,
                  hidden_for = CASE WHEN state = 'auto_hidden' THEN hidden_for ELSE NULL END,
                  category = ${publication.category},
                  tags = ${JSON.stringify(publication.tags)}::jsonb,
                  description = ${publication.description},
                  name = ${publication.name},
                  search_text = ${text},
                  search_latin = ${Slugs.transliterate(text)},
                  updated_at = ${updatedAt}
                WHERE guild_id = ${publication.guildId} RETURNING ${columns}`)
            }
            // The first free slug; the last candidate (the guild's id) is free by construction.
            for (const slug of publication.slugs) {
              const inserted = yield* one(sql`
                INSERT INTO discovery_listings
                  (guild_id, owner_id, slug, state, category, tags, description, name, reason, updated_at, search_text, search_latin)
                VALUES (${publication.guildId}, ${publication.ownerId}, ${slug}, 'listed', ${publication.category},
                  ${JSON.stringify(publication.tags)}::jsonb, ${publication.description}, ${publication.name}, NULL,
                  ${updatedAt}, ${text}, ${Slugs.transliterate(text)})
                ON CONFLICT (slug) DO NOTHING RETURNING ${columns}`)
              if (Option.isSome(inserted)) return inserted
            }
            return Option.none<Listing.Listing>()
          })
        )
        .pipe(
          Effect.catchTag("SqlError", Effect.die),
          Effect.flatMap((listing) =>
            Option.isSome(listing)
              ? Effect.succeed(listing.value)
              : Effect.die(new Error(`no free slug for guild ${publication.guildId}`))
          )
        )

    const search: DiscoveryRepo.DiscoveryRepo["Service"]["search"] = (filter) => {
      const category = filter.category === null ? sql`true` : sql`category = ${filter.category}`
      if (filter.q === null || filter.q.trim() === "") {
        return Effect.map(
          sql<{ readonly guild_id: string }>`
            SELECT guild_id::text FROM discovery_listings WHERE state = 'listed' AND ${category}
            ORDER BY updated_at DESC, guild_id LIMIT ${filter.limit}`.pipe(Effect.orDie),
          (rows) => rows.map((row) => Snowflake.Snowflake.make(row.guild_id))
        )
      }
      const q = filter.q.toLowerCase()
      return Effect.map(
        sql<{ readonly guild_id: string }>`
          WITH query AS (
            SELECT websearch_to_tsquery('simple'::regconfig, ${q}) || websearch_to_tsquery('russian'::regconfig, ${q})
              || websearch_to_tsquery('english'::regconfig, ${q}) AS words
          )
          SELECT guild_id::text FROM (
            SELECT guild_id,
              ts_rank(search_vector, query.words) AS text_rank,
              ${trgm}.word_similarity(${Slugs.transliterate(q)}, search_latin) AS likeness
            FROM discovery_listings, query
            WHERE state = 'listed' AND ${category}
          ) ranked
          WHERE text_rank > 0 OR likeness >= ${SIMILAR}
          ORDER BY text_rank + likeness DESC, guild_id LIMIT ${filter.limit}`.pipe(Effect.orDie),
        (rows) => rows.map((row) => Snowflake.Snowflake.make(row.guild_id))
      )
    }

    const report: DiscoveryRepo.DiscoveryRepo["Service"]["report"] = (report, hideAt) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const [listing] = yield* sql<{ readonly state: string }>`
              SELECT state FROM discovery_listings WHERE guild_id = ${report.guildId} FOR UPDATE`
            if (listing?.state !== "listed") return yield* new DiscoveryErrors.NotInCatalogue()
            const inserted = yield* sql`
              INSERT INTO discovery_reports (guild_id, user_id, reason, created_at)
              VALUES (${report.guildId}, ${report.userId}, ${report.reason}, ${DateTime.toDateUtc(report.now)})
              ON CONFLICT (guild_id, user_id) DO NOTHING RETURNING guild_id`
            const counted = inserted.length > 0
            if (!counted || hideAt <= 0) return { counted, hidden: false }
            const [open] = yield* sql<{ readonly n: number }>`
              SELECT count(*)::int AS n FROM discovery_reports WHERE guild_id = ${report.guildId} AND open`
            if ((open?.n ?? 0) < hideAt) return { counted, hidden: false }
            yield* sql`
              UPDATE discovery_listings SET state = 'auto_hidden', reason = ${DiscoveryRepo.AUTO_HIDE_REASON},
                hidden_for = 'reports', updated_at = ${DateTime.toDateUtc(report.now)}
              WHERE guild_id = ${report.guildId}`
            return { counted, hidden: true }
          })
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))

    return DiscoveryRepo.DiscoveryRepo.of({
      find: (guildId) => one(sql`SELECT ${columns} FROM discovery_listings WHERE guild_id = ${guildId}`),
      findBySlug: (slug) => one(sql`SELECT ${columns} FROM discovery_listings WHERE slug = ${slug}`),
      publish,
      unpublish: (guildId, now) =>
        one(sql`
          UPDATE discovery_listings SET
            state = CASE WHEN state = 'removed' THEN state ELSE 'not_listed' END,
            reason = CASE WHEN state = 'removed' THEN reason ELSE NULL END,
            hidden_for = NULL,
            updated_at = ${DateTime.toDateUtc(now)}
          WHERE guild_id = ${guildId} RETURNING ${columns}`),
      // Read, then write: the transliterated text is made here, not in SQL. A card change racing a
      // rename loses nothing that the next card built does not put right (it renames again).
      rename: (guildId, name) =>
        Effect.gen(function* () {
          const found = yield* one(sql`SELECT ${columns} FROM discovery_listings WHERE guild_id = ${guildId}`)
          if (Option.isNone(found)) return
          const text = searchText(name, found.value.description, found.value.tags)
          yield* sql`
            UPDATE discovery_listings SET name = ${name}, search_text = ${text},
              search_latin = ${Slugs.transliterate(text)}
            WHERE guild_id = ${guildId}`.pipe(Effect.orDie)
        }),
      search,
      report,
      setState: (guildId, state, reason, now) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const changed = yield* one(sql`
                UPDATE discovery_listings SET state = ${state}, reason = ${reason},
                  hidden_for = ${state === "auto_hidden" ? "staff" : null}, updated_at = ${DateTime.toDateUtc(now)}
                WHERE guild_id = ${guildId} RETURNING ${columns}`)
              if (Option.isSome(changed))
                yield* sql`UPDATE discovery_reports SET open = false WHERE guild_id = ${guildId} AND open`
              return changed
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die)),
      inState: (state, limit) =>
        many(sql`
          SELECT ${sql.unsafe(
            COLUMNS.split(", ")
              .map((column) => `l.${column}`)
              .join(", ")
          )}
          FROM discovery_listings l
          LEFT JOIN LATERAL (
            SELECT count(*)::int AS n FROM discovery_reports r WHERE r.guild_id = l.guild_id AND r.open
          ) reports ON true
          WHERE ${state === null ? sql`l.state <> 'not_listed'` : sql`l.state = ${state}`}
          ORDER BY reports.n DESC, l.updated_at DESC, l.guild_id LIMIT ${limit}`),
      reportsBy: (userId) =>
        Effect.map(
          sql<{ readonly guild_id: string; readonly reason: string; readonly created_at: Date }>`
            SELECT guild_id::text, reason, created_at FROM discovery_reports WHERE user_id = ${userId}
            ORDER BY created_at, guild_id`.pipe(Effect.orDie),
          (rows) =>
            rows.map((row) => ({
              guildId: Snowflake.Snowflake.make(row.guild_id),
              reason: row.reason,
              createdAt: DateTime.fromDateUnsafe(row.created_at)
            }))
        ),
      listedCount: Effect.map(
        sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM discovery_listings WHERE state = 'listed'`.pipe(
          Effect.orDie
        ),
        (rows) => rows[0]?.n ?? 0
      ),
      eraseReportsBy: (userId) =>
        sql`DELETE FROM discovery_reports WHERE user_id = ${userId}`.pipe(Effect.asVoid, Effect.orDie),
      // Claimed rows are marked in the same statement; SKIP LOCKED hands rows another node is
      // claiming to nobody else, so concurrent rounds split the due rows between them.
      claimDue: (cutoff, now, limit) =>
        many(sql`
          UPDATE discovery_listings SET checked_at = ${DateTime.toDateUtc(now)}
          WHERE guild_id IN (
            SELECT guild_id FROM discovery_listings
            WHERE ${sql.unsafe(CHECKABLE)} AND (checked_at IS NULL OR checked_at < ${DateTime.toDateUtc(cutoff)})
            ORDER BY checked_at NULLS FIRST, guild_id LIMIT ${limit}
            FOR UPDATE SKIP LOCKED
          )
          RETURNING ${columns}`),
      hideForConditions: (guildId, reason, now) =>
        sql`
          UPDATE discovery_listings SET state = 'auto_hidden', hidden_for = 'conditions', reason = ${reason},
            updated_at = ${DateTime.toDateUtc(now)}
          WHERE guild_id = ${guildId} AND ${sql.unsafe(CHECKABLE)} RETURNING guild_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      relist: (guildId, now) =>
        sql`
          UPDATE discovery_listings SET state = 'listed', hidden_for = NULL, reason = NULL,
            updated_at = ${DateTime.toDateUtc(now)}
          WHERE guild_id = ${guildId} AND state = 'auto_hidden' AND hidden_for = 'conditions'
          RETURNING guild_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      openReports: (guildIds) =>
        guildIds.length === 0
          ? Effect.succeed(new Map())
          : Effect.map(
              sql<{ readonly guild_id: string; readonly n: number }>`
                SELECT guild_id::text, count(*)::int AS n FROM discovery_reports
                WHERE guild_id = ANY(${idArray(guildIds)}::bigint[]) AND open GROUP BY guild_id`.pipe(Effect.orDie),
              (rows) => new Map(rows.map((row) => [Snowflake.Snowflake.make(row.guild_id), row.n]))
            )
    })
  })
)
