/**
 * DeliveryStore on PostgreSQL (table `delivery_jobs`, migration 0006), shared by every node.
 *
 * A claim is one statement: it picks the earliest due, unleased, unexpired rows `FOR UPDATE SKIP
 * LOCKED` and sets their lease in the same UPDATE, so two nodes claiming at once lock disjoint rows,
 * and a row another claim has just leased fails the re-check of the WHERE clause (READ COMMITTED)
 * instead of being handed out twice. Time is the `now` the caller passes, never the server's clock,
 * so this store and the memory one agree under the test clock.
 *
 * Payloads carry codes and links: they are sealed with the SecretBox before they reach the
 * database, and a row that does not open (its key left the ring, or it was tampered with) can never
 * be sent, so a claim removes it with a log line instead of handing it out.
 */
import { DeliveryJob, DeliveryStore, SecretBox } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** Bound into every seal, so a sealed value from another purpose does not open here. */
const ASSOCIATED_DATA = "delivery-queue"

const ClaimedRow = Schema.Struct({
  id: Schema.BigInt,
  payload: Schema.String,
  attempts: Schema.Int,
  next_attempt_at: Schema.Date
})
const decodeClaimed = Schema.decodeUnknownEffect(Schema.Array(ClaimedRow))

const ExpiredRow = Schema.Struct({ id: Schema.BigInt, attempts: Schema.Int })
const decodeExpired = Schema.decodeUnknownEffect(Schema.Array(ExpiredRow))

const NextDueRow = Schema.Struct({ at: Schema.NullOr(Schema.Date) })
const decodeNextDue = Schema.decodeUnknownEffect(Schema.Array(NextDueRow))

const IdRow = Schema.Struct({ id: Schema.BigInt })
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(IdRow))

const date = DateTime.toDateUtc

/** Job ids are decimal strings of the BIGINT; anything else names no row. */
const toId = (id: DeliveryStore.JobId): bigint | undefined => (/^\d{1,19}$/.test(id) ? BigInt(id) : undefined)

export const layer: Layer.Layer<DeliveryStore.DeliveryStore, never, SqlClient.SqlClient | SecretBox.SecretBox> =
  Layer.effect(
    DeliveryStore.DeliveryStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const box = yield* SecretBox.SecretBox

      const add = Effect.fn("PgDeliveryStore.add")(function* (job: DeliveryJob.Job, now: DateTime.Utc) {
        const payload = yield* DeliveryJob.encode(job).pipe(
          Effect.flatMap((text) => box.seal(text, ASSOCIATED_DATA)),
          Effect.orDie
        )
        const rows = yield* sql`INSERT INTO delivery_jobs ${sql.insert({
          payload,
          expires_at: date(job.expiresAt),
          attempts: 0,
          next_attempt_at: date(now),
          created_at: date(now)
        })} RETURNING id`.pipe(
          Effect.catchTag("SqlError", (error) =>
            Effect.logError("delivery store: could not add a job", error).pipe(
              Effect.andThen(
                Effect.fail(new DeliveryStore.DeliveryUnavailable({ reason: `database: ${error.reason._tag}` }))
              )
            )
          ),
          Effect.flatMap(decodeIds),
          // A row that went in but reads back wrong is a fault, not unavailability.
          Effect.catchTag("SchemaError", Effect.die)
        )
        const [row] = rows
        if (row === undefined) return yield* Effect.die("INSERT … RETURNING answered no row")
        return String(row.id)
      })

      /** The job in a claimed row, or none (after removing the row) when it cannot be read. */
      const readClaimed = (row: typeof ClaimedRow.Type) =>
        box.open(row.payload, ASSOCIATED_DATA).pipe(
          Effect.flatMap(DeliveryJob.decode),
          Effect.map((job): DeliveryStore.Claim | undefined => ({ id: String(row.id), attempt: row.attempts, job })),
          Effect.catchTags({
            SecretBoxError: (error) => unreadable(row.id, error.reason),
            // The schema's message may quote the payload: it is not logged.
            SchemaError: () => unreadable(row.id, "the opened payload is not a delivery job")
          })
        )
      const unreadable = (id: bigint, reason: string) =>
        sql`DELETE FROM delivery_jobs WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.andThen(Effect.logError(`delivery job ${id} cannot be read (${reason}); dropped`)),
          Effect.as(undefined)
        )

      const claim = Effect.fn("PgDeliveryStore.claim")(function* (
        now: DateTime.Utc,
        leaseUntil: DateTime.Utc,
        limit: number
      ) {
        if (limit <= 0) return []
        const at = date(now)
        const rows = yield* sql`
          WITH due AS (
            SELECT id FROM delivery_jobs
            WHERE next_attempt_at <= ${at} AND expires_at > ${at} AND (lease_until IS NULL OR lease_until <= ${at})
            ORDER BY next_attempt_at, id
            LIMIT ${Math.floor(limit)}
            FOR UPDATE SKIP LOCKED
          )
          UPDATE delivery_jobs AS j SET lease_until = ${date(leaseUntil)}, attempts = j.attempts + 1
          FROM due WHERE j.id = due.id
          RETURNING j.id, j.payload, j.attempts, j.next_attempt_at`.pipe(Effect.flatMap(decodeClaimed), Effect.orDie)
        // RETURNING keeps no order: restore the earliest-due-first of the port.
        const ordered = [...rows].sort(
          (a, b) =>
            a.next_attempt_at.getTime() - b.next_attempt_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
        )
        const claims = yield* Effect.forEach(ordered, readClaimed)
        return claims.filter((claim) => claim !== undefined)
      })

      const retryAt = (claim: DeliveryStore.Claim, at: DateTime.Utc) => {
        const id = toId(claim.id)
        if (id === undefined) return Effect.succeed(false)
        return sql`UPDATE delivery_jobs SET next_attempt_at = ${date(at)}, lease_until = NULL
                   WHERE id = ${id} AND attempts = ${claim.attempt}
                   RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
      }

      const remove = (jobId: DeliveryStore.JobId) => {
        const id = toId(jobId)
        if (id === undefined) return Effect.void
        return sql`DELETE FROM delivery_jobs WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
      }

      const dropExpired = (now: DateTime.Utc) =>
        sql`DELETE FROM delivery_jobs WHERE expires_at <= ${date(now)} RETURNING id, attempts`.pipe(
          Effect.flatMap(decodeExpired),
          Effect.map((rows) =>
            rows.map((row): DeliveryStore.Expired => ({ id: String(row.id), attempts: row.attempts }))
          ),
          Effect.orDie
        )

      const nextDue = (now: DateTime.Utc) =>
        sql`SELECT min(ready) AS at FROM (
              SELECT GREATEST(next_attempt_at, COALESCE(lease_until, next_attempt_at)) AS ready, expires_at
              FROM delivery_jobs
            ) AS jobs
            WHERE expires_at > GREATEST(ready, ${date(now)})`.pipe(
          Effect.flatMap(decodeNextDue),
          Effect.map(([row]) => Option.fromNullishOr(row?.at).pipe(Option.map(DateTime.fromDateUnsafe))),
          Effect.orDie
        )

      // Other nodes add and claim jobs in this table too: their workers find them by polling.
      return DeliveryStore.DeliveryStore.of({ shared: true, add, claim, retryAt, remove, dropExpired, nextDue })
    })
  )
