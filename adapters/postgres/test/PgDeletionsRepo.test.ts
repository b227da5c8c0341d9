import { describe, layer } from "@effect/vitest"
import { deletionsRepoContract } from "@veche/privacy/test/contracts/DeletionsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgDeletionsRepo from "../src/PgDeletionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("DeletionsRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgDeletionsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => deletionsRepoContract(it))
})
