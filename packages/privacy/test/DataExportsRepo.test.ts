import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { DataExportsRepo } from "../src/DataExportsRepo.ts"
import { dataExportsRepoContract } from "./contracts/DataExportsRepoContract.ts"

describe("DataExportsRepo (memory)", () => {
  layer(Layer.merge(DataExportsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) => dataExportsRepoContract(it))
})
