import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { BlocksRepo } from "../src/BlocksRepo.ts"
import { SessionsRepo } from "../src/SessionsRepo.ts"
import { blocksRepoContract } from "./contracts/BlocksRepoContract.ts"

describe("BlocksRepo (memory)", () => {
  layer(
    SessionsRepo.layerMemory.pipe(
      Layer.provideMerge(BlocksRepo.layerMemory),
      Layer.provide(AccountsRepo.layerMemory),
      Layer.provideMerge(UsersRepo.UsersRepo.layerMemory)
    )
  )((it) => blocksRepoContract(it))
})
