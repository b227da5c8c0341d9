import { describe, expect, layer } from "@effect/vitest"
import { SessionsRepo } from "@veche/auth"
import { sessionsRepoContract } from "@veche/auth/test/contracts/SessionsRepoContract"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as PgSessionsRepo from "../src/PgSessionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("SessionsRepo (PostgreSQL)", () => {
  layer(PgSessionsRepo.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => sessionsRepoContract(it))
})

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(12))
const T0 = Date.UTC(2026, 2, 1)
const at = (days: number) => DateTime.makeUnsafe(T0 + days * 86_400_000)
const Count = Schema.Array(Schema.Struct({ sessions: Schema.BigInt, tokens: Schema.BigInt }))

describe.runIf(url !== undefined && url !== "")("Session sweep (PostgreSQL rows)", () => {
  layer(PgSessionsRepo.layer.pipe(Layer.provideMerge(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => {
    it.effect("the rows of swept sessions and their tokens are gone; a live session keeps all of its rows", () =>
      Effect.gen(function* () {
        const repo = yield* SessionsRepo.SessionsRepo
        const sql = yield* SqlClient.SqlClient
        const make = Effect.fnUntraced(function* (label: string) {
          const id = yield* ids.next
          const digest = `${label}-${id}`
          yield* repo.create(
            {
              id,
              userId: yield* ids.next,
              client: { userAgent: null, address: null, country: null },
              createdAt: at(0),
              lastUsedAt: at(0),
              expiresAt: at(30),
              revokedAt: null,
              passwordChangedAt: null
            },
            { access: { digest, expiresAt: at(1) }, refresh: { digest: `${digest}-r` } }
          )
          yield* repo.rotate(
            `${digest}-r`,
            { access: { digest: `${digest}-a2`, expiresAt: at(2) }, refresh: { digest: `${digest}-r2` } },
            at(1)
          )
          return id
        })
        const rowsOf = (id: string) =>
          sql`SELECT (SELECT count(*) FROM sessions WHERE id = ${id}) AS sessions,
                     (SELECT count(*) FROM session_tokens WHERE session_id = ${id}) AS tokens`.pipe(
            Effect.flatMap(Schema.decodeUnknownEffect(Count)),
            Effect.map(([row]) => ({ sessions: Number(row?.sessions), tokens: Number(row?.tokens) })),
            Effect.orDie
          )
        const live = yield* make("live")
        const dead = yield* make("dead")
        yield* repo.revoke(dead, at(2))
        expect(yield* rowsOf(dead)).toEqual({ sessions: 1, tokens: 3 })
        expect(yield* repo.sweep(at(3), 100)).toEqual({ sessions: 1, tokens: 3 })
        expect(yield* rowsOf(dead)).toEqual({ sessions: 0, tokens: 0 })
        // the spent refresh token, the current access and refresh tokens
        expect(yield* rowsOf(live)).toEqual({ sessions: 1, tokens: 3 })
        // past its absolute end it goes too
        expect(yield* repo.sweep(at(30), 100)).toEqual({ sessions: 1, tokens: 3 })
        expect(yield* rowsOf(live)).toEqual({ sessions: 0, tokens: 0 })
      })
    )
  })
})
