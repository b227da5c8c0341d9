import { describe, layer } from "@effect/vitest"
import { AccountsRepo, SessionsRepo } from "@veche/auth"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import * as SanctionBlocks from "../src/SanctionBlocks.ts"
import { SanctionsRepo } from "../src/SanctionsRepo.ts"
import { sanctionsRepoContract } from "./contracts/SanctionsRepoContract.ts"

describe("SanctionsRepo (memory)", () => {
  layer(
    SessionsRepo.SessionsRepo.layerMemory.pipe(
      // the memory sessions read blocks through auth's port, answered from the same sanctions
      Layer.provide(SanctionBlocks.layer),
      Layer.provideMerge(SanctionsRepo.layerMemory),
      Layer.provide(AccountsRepo.AccountsRepo.layerMemory),
      Layer.provide(UserRecords.UserRecords.layer),
      Layer.provideMerge(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
    )
  )((it) => sanctionsRepoContract(it))
})
