import { describe, layer } from "@effect/vitest"
import { ProfilesRepo, UserRecords, UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { AccountSnapshots } from "../src/AccountSnapshot.ts"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { EmailLinksRepo } from "../src/EmailLinksRepo.ts"
import { MfaRepo } from "../src/MfaRepo.ts"
import { accountSnapshotsContract } from "./contracts/AccountSnapshotsContract.ts"

describe("AccountSnapshots (memory, from the repositories)", () => {
  layer(
    AccountSnapshots.layerFromRepos.pipe(
      Layer.provideMerge(Layer.mergeAll(AccountsRepo.layerMemory, MfaRepo.layerMemory, EmailLinksRepo.layerMemory)),
      Layer.provideMerge(UserRecords.UserRecords.layer),
      Layer.provideMerge(Layer.merge(UsersRepo.UsersRepo.layerMemory, ProfilesRepo.ProfilesRepo.layerMemory))
    )
  )((it) => accountSnapshotsContract(it))
})
