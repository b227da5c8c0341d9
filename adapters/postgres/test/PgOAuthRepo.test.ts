import { describe, layer } from "@effect/vitest"
import { oauthRepoContract } from "@veche/oauth/test/contracts/OAuthRepoContract"
import { Layer, Redacted } from "effect"
import * as PgApplicationsRepo from "../src/PgApplicationsRepo.ts"
import * as PgOAuthRepo from "../src/PgOAuthRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("OAuthRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgOAuthRepo.layer, PgApplicationsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => oauthRepoContract(it))
})
