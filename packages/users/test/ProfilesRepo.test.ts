import { describe, layer } from "@effect/vitest"
import { Layer } from "effect"
import { ProfilesRepo } from "../src/ProfilesRepo.ts"
import { UsersRepo } from "../src/UsersRepo.ts"
import { profilesRepoContract } from "./contracts/ProfilesRepoContract.ts"

describe("ProfilesRepo (memory)", () => {
  layer(Layer.merge(ProfilesRepo.layerMemory, UsersRepo.layerMemory))((it) => profilesRepoContract(it))
})
