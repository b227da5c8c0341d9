import { describe, layer } from "@effect/vitest"
import { GuildsRepo } from "@veche/guilds"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { DiscoveryRepo } from "../src/DiscoveryRepo.ts"
import { discoveryRepoContract } from "./contracts/DiscoveryRepoContract.ts"

describe("DiscoveryRepo (memory)", () => {
  layer(Layer.mergeAll(DiscoveryRepo.layerMemory, GuildsRepo.GuildsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))(
    (it) => discoveryRepoContract(it)
  )
})
