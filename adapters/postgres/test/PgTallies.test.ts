import { describe, layer } from "@effect/vitest"
import { talliesContract } from "@veche/platform/test/contracts/TalliesContract"
import { Layer, Redacted } from "effect"
import * as PgTallies from "../src/PgTallies.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("Tallies (PostgreSQL)", () => {
  layer(PgTallies.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => talliesContract(it))
})
