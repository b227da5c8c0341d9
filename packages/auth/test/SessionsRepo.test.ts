import { describe, layer } from "@effect/vitest"
import { SessionsRepo } from "../src/SessionsRepo.ts"
import { sessionsRepoContract } from "./contracts/SessionsRepoContract.ts"

describe("SessionsRepo (memory)", () => {
  layer(SessionsRepo.layerMemory)((it) => sessionsRepoContract(it))
})
