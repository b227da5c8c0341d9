import { describe, layer } from "@effect/vitest"
import { emailLinksRepoContract } from "@veche/auth/test/contracts/EmailLinksRepoContract"
import { Layer, Redacted } from "effect"
import * as PgEmailLinksRepo from "../src/PgEmailLinksRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("EmailLinksRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgEmailLinksRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => emailLinksRepoContract(it))
})
