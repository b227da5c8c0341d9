import { describe, layer } from "@effect/vitest"
import { restrictionsRepoContract } from "@veche/auth/test/contracts/RestrictionsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgRestrictionsRepo from "../src/PgRestrictionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("RestrictionsRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgRestrictionsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => restrictionsRepoContract(it))
})
