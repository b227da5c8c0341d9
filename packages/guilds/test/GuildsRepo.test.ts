import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { GuildsRepo } from "../src/GuildsRepo.ts"
import { guildsRepoContract } from "./contracts/GuildsRepoContract.ts"

describe("GuildsRepo (memory)", () => {
  layer(Layer.merge(GuildsRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) => guildsRepoContract(it))
})
