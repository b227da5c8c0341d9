import { describe, layer } from "@effect/vitest"
import { GuildsRepo } from "@veche/guilds"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { BillingRepo } from "../src/BillingRepo.ts"
import { billingRepoContract } from "./contracts/BillingRepoContract.ts"

describe("BillingRepo (memory)", () => {
  layer(Layer.mergeAll(BillingRepo.layerMemory, GuildsRepo.GuildsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))(
    (it) => billingRepoContract(it)
  )
})
