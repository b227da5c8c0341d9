import { describe, layer } from "@effect/vitest"
import { accountsRepoContract } from "@veche/auth/test/contracts/AccountsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgAccountsRepo from "../src/PgAccountsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one). The
// users adapter sits beside it on the same schema, so the suite can check no user was half-created.
describe.runIf(url !== undefined && url !== "")("AccountsRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgAccountsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => accountsRepoContract(it))
})
