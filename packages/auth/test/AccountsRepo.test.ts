import { describe, layer } from "@effect/vitest"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { accountsRepoContract } from "./contracts/AccountsRepoContract.ts"

describe("AccountsRepo (memory)", () => {
  // provideMerge keeps UsersRepo visible, so the suite can check that no user was half-created.
  layer(
    AccountsRepo.layerMemory.pipe(
      Layer.provide(UserRecords.UserRecords.layer),
      Layer.provideMerge(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
    )
  )((it) => accountsRepoContract(it))
})
