import { describe, layer } from "@effect/vitest"
import { Layer } from "effect"
import { BlocksRepo } from "../src/BlocksRepo.ts"
import { SessionsRepo } from "../src/SessionsRepo.ts"
import { sessionsRepoContract } from "./contracts/SessionsRepoContract.ts"

describe("SessionsRepo (memory)", () => {
  layer(SessionsRepo.layerMemory.pipe(Layer.provide(BlocksRepo.layerMemory)))((it) => sessionsRepoContract(it))
})
