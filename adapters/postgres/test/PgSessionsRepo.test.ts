import { describe, layer } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { sessionsRepoContract } from "../../../packages/auth/test/contracts/SessionsRepoContract.ts"
import * as PgSessionsRepo from "../src/PgSessionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("SessionsRepo (PostgreSQL)", () => {
  layer(PgSessionsRepo.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => sessionsRepoContract(it))
})
