import { describe, layer } from "@effect/vitest"
import { relationshipsRepoContract } from "@veche/users/test/contracts/RelationshipsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgRelationshipsRepo from "../src/PgRelationshipsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("RelationshipsRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgRelationshipsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => relationshipsRepoContract(it))
})
