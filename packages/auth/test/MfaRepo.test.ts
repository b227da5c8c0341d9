import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { MfaRepo } from "../src/MfaRepo.ts"
import { mfaRepoContract } from "./contracts/MfaRepoContract.ts"

describe("MfaRepo (memory)", () => {
  layer(Layer.merge(MfaRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) => mfaRepoContract(it))
})
