import { describe, layer } from "@effect/vitest"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { AccountBlocks } from "../src/AccountBlocks.ts"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { SessionsRepo } from "../src/SessionsRepo.ts"
import { sessionsRepoContract } from "./contracts/SessionsRepoContract.ts"

describe("SessionsRepo (memory)", () => {
  layer(
    SessionsRepo.layerMemory.pipe(
      Layer.provide(Layer.merge(AccountBlocks.layerNone, AccountsRepo.layerMemory)),
      Layer.provide(UserRecords.UserRecords.layer),
      Layer.provide(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
    )
  )((it) => sessionsRepoContract(it))
})
