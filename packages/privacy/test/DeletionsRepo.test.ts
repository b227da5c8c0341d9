import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { DeletionsRepo } from "../src/DeletionsRepo.ts"
import { deletionsRepoContract } from "./contracts/DeletionsRepoContract.ts"

describe("DeletionsRepo (memory)", () => {
  layer(Layer.merge(DeletionsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) => deletionsRepoContract(it))
})
