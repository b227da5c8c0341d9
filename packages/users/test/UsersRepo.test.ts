import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "../src/UsersRepo.ts"
import { usersRepoContract } from "./contracts/UsersRepoContract.ts"

describe("UsersRepo (memory)", () => {
  layer(UsersRepo.layerMemory)((it) => usersRepoContract(it))
})
