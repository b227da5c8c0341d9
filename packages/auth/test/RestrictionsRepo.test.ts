import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { RestrictionsRepo } from "../src/RestrictionsRepo.ts"
import { restrictionsRepoContract } from "./contracts/RestrictionsRepoContract.ts"

describe("RestrictionsRepo (memory)", () => {
  layer(Layer.merge(RestrictionsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) =>
    restrictionsRepoContract(it)
  )
})
