import { describe, layer } from "@effect/vitest"
import {
  verificationsRaceContract,
  verificationsRepoContract
} from "@veche/auth/test/contracts/VerificationsRepoContract"
import { Layer, Redacted } from "effect"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgVerificationsRepo from "../src/PgVerificationsRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined)("VerificationsRepo (PostgreSQL)", () => {
  layer(PgVerificationsRepo.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => {
    verificationsRepoContract(it)
    verificationsRaceContract(it)
  })
})
