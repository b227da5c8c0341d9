import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { ApplicationsRepo } from "../src/ApplicationsRepo.ts"
import { applicationsRepoContract } from "./contracts/ApplicationsRepoContract.ts"

describe("ApplicationsRepo (memory)", () => {
  layer(Layer.merge(ApplicationsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) =>
    applicationsRepoContract(it)
  )
})
