import { describe, expect, layer } from "@effect/vitest"
import { DeliveryJob, DeliveryStore, SecretBox } from "@veche/platform"
import { deliveryStoreContract } from "@veche/platform/test/contracts/DeliveryStoreContract"
import { DateTime, Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as PgDeliveryStore from "../src/PgDeliveryStore.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL
const database = () => PgTestSchema.layer(Redacted.make(url ?? ""))

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined)("DeliveryStore (PostgreSQL)", () => {
  layer(PgDeliveryStore.layer.pipe(Layer.provide(SecretBox.SecretBox.layerEphemeral), Layer.provide(database())), {
    timeout: "60 seconds"
  })((it) => deliveryStoreContract(it))
})

const CODE = "482913"
const LINK = "https://veche.test/recover#token=secret-token-1"

describe.runIf(url !== undefined)("PgDeliveryStore at rest", () => {
  layer(PgDeliveryStore.layer.pipe(Layer.provide(SecretBox.SecretBox.layerEphemeral), Layer.provideMerge(database())), {
    timeout: "60 seconds"
  })((it) => {
    it.effect("keeps payloads sealed: no code, text or link in the table", () =>
      Effect.gen(function* () {
        const store = yield* DeliveryStore.DeliveryStore
        const sql = yield* SqlClient.SqlClient
        const now = yield* DateTime.now
        const expiresAt = DateTime.addDuration(now, Duration.minutes(10))
        yield* store.add(
          {
            _tag: "Sms",
            message: { to: "+79161234567", kind: "recover", code: CODE, text: `Code ${CODE}` },
            expiresAt
          },
          now
        )
        yield* store.add(
          {
            _tag: "Mail",
            letter: {
              to: "a@example.org",
              subject: "Recover",
              text: `Open ${LINK}`,
              kind: "email_recover",
              link: LINK
            },
            expiresAt
          },
          now
        )
        const rows = yield* sql<{ readonly payload: string }>`SELECT payload FROM delivery_jobs`
        expect(rows.length).toBeGreaterThanOrEqual(2)
        for (const { payload } of rows) {
          expect(payload).toMatch(/^v1\./)
          for (const secret of [CODE, LINK, "secret-token-1", "Recover", "+79161234567"]) {
            expect(payload).not.toContain(secret)
          }
        }
        yield* sql`DELETE FROM delivery_jobs`
      })
    )

    it.effect("drops a row that does not open instead of handing it out", () =>
      Effect.gen(function* () {
        const store = yield* DeliveryStore.DeliveryStore
        const sql = yield* SqlClient.SqlClient
        const box = yield* Effect.map(Effect.succeed(SecretBox.SecretBox.make), (make) =>
          make([{ id: "other", key: Redacted.make(new Uint8Array(32).fill(7)) }])
        )
        const now = yield* DateTime.now
        const expiresAt = DateTime.addDuration(now, Duration.minutes(10))
        const job: DeliveryJob.Job = {
          _tag: "Sms",
          message: { to: "+79161234567", kind: "register", code: CODE, text: `Code ${CODE}` },
          expiresAt
        }
        // Sealed under a key the store does not hold, and sealed for another purpose.
        const foreignKey = yield* box.seal(yield* DeliveryJob.encode(job), "delivery-queue")
        const at = DateTime.toDateUtc(now)
        const insert = (payload: string) =>
          sql`INSERT INTO delivery_jobs ${sql.insert({
            payload,
            expires_at: DateTime.toDateUtc(expiresAt),
            attempts: 0,
            next_attempt_at: at,
            created_at: at
          })}`
        yield* insert(foreignKey)
        yield* insert("not an envelope")
        const good = yield* store.add(job, now)

        const claims = yield* store.claim(now, DateTime.addDuration(now, Duration.seconds(60)), 10)
        expect(claims.map((claim) => claim.id)).toEqual([good])
        const left = yield* sql<{ readonly id: string }>`SELECT id::text AS id FROM delivery_jobs`
        expect(left.map((row) => row.id)).toEqual([good])
        yield* sql`DELETE FROM delivery_jobs`
      })
    )
  })
})
