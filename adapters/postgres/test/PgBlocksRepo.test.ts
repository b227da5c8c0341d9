import { describe, layer } from "@effect/vitest"
import { blocksRepoContract } from "@veche/auth/test/contracts/BlocksRepoContract"
import { Layer, Redacted } from "effect"
import * as PgBlocksRepo from "../src/PgBlocksRepo.ts"
import * as PgSessionsRepo from "../src/PgSessionsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("BlocksRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgBlocksRepo.layer, PgSessionsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => blocksRepoContract(it))
})
