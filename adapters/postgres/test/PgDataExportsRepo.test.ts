import { describe, layer } from "@effect/vitest"
import { dataExportsRepoContract } from "@veche/privacy/test/contracts/DataExportsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgDataExportsRepo from "../src/PgDataExportsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("DataExportsRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgDataExportsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => dataExportsRepoContract(it))
})
