import { describe, layer } from "@effect/vitest"
import { sanctionsRepoContract } from "@veche/moderation/test/contracts/SanctionsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgSanctionsRepo from "../src/PgSanctionsRepo.ts"
import * as PgSessionsRepo from "../src/PgSessionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("SanctionsRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgSanctionsRepo.layer, PgSessionsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => sanctionsRepoContract(it))
})
