import { describe, layer } from "@effect/vitest"
import { accountSnapshotsContract } from "@veche/auth/test/contracts/AccountSnapshotsContract"
import { Layer, Redacted } from "effect"
import * as PgAccountSnapshots from "../src/PgAccountSnapshots.ts"
import * as PgAccountsRepo from "../src/PgAccountsRepo.ts"
import * as PgEmailLinksRepo from "../src/PgEmailLinksRepo.ts"
import * as PgMfaRepo from "../src/PgMfaRepo.ts"
import * as PgProfilesRepo from "../src/PgProfilesRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("AccountSnapshots (PostgreSQL, one query)", () => {
  layer(
    Layer.mergeAll(
      PgAccountSnapshots.layer,
      PgAccountsRepo.layer,
      PgProfilesRepo.layer,
      PgMfaRepo.layer,
      PgEmailLinksRepo.layer,
      PgUsersRepo.layer
    ).pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))),
    { timeout: "60 seconds" }
  )((it) => accountSnapshotsContract(it))
})
