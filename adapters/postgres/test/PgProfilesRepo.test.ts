import { describe, layer } from "@effect/vitest"
import { profilesRepoContract } from "@veche/users/test/contracts/ProfilesRepoContract"
import { Layer, Redacted } from "effect"
import * as PgProfilesRepo from "../src/PgProfilesRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("ProfilesRepo (PostgreSQL)", () => {
  layer(
    Layer.merge(PgProfilesRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => profilesRepoContract(it))
})
