import { describe, layer } from "@effect/vitest"
import { discoveryRepoContract } from "@veche/discovery/test/contracts/DiscoveryRepoContract"
import { Layer, Redacted } from "effect"
import * as PgDiscoveryRepo from "../src/PgDiscoveryRepo.ts"
import * as PgGuildsRepo from "../src/PgGuildsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("DiscoveryRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgDiscoveryRepo.layer, PgGuildsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => discoveryRepoContract(it))
})
