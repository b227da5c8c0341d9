import { describe, layer } from "@effect/vitest"
import { VerificationsRepo } from "../src/VerificationsRepo.ts"
import { verificationsRaceContract, verificationsRepoContract } from "./contracts/VerificationsRepoContract.ts"

describe("VerificationsRepo (memory)", () => {
  layer(VerificationsRepo.layerMemory)((it) => {
    verificationsRepoContract(it)
    verificationsRaceContract(it)
  })
})
