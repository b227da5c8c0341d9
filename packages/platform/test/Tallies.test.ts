import { describe, layer } from "@effect/vitest"
import * as Tallies from "../src/Tallies.ts"
import { talliesContract } from "./contracts/TalliesContract.ts"

describe("Tallies (memory)", () => {
  layer(Tallies.layerMemory)((it) => talliesContract(it))
})
