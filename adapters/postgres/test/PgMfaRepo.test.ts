import { describe, layer } from "@effect/vitest"
import { mfaRepoContract } from "@veche/auth/test/contracts/MfaRepoContract"
import { Layer, Redacted } from "effect"
import * as PgMfaRepo from "../src/PgMfaRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("MfaRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgMfaRepo.layer, PgUsersRepo.layer).pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))),
    { timeout: "60 seconds" }
  )((it) => mfaRepoContract(it))
})
