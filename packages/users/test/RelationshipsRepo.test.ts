import { describe, layer } from "@effect/vitest"
import { Layer } from "effect"
import { RelationshipsRepo } from "../src/RelationshipsRepo.ts"
import { UsersRepo } from "../src/UsersRepo.ts"
import { relationshipsRepoContract } from "./contracts/RelationshipsRepoContract.ts"

describe("RelationshipsRepo (memory)", () => {
  layer(Layer.merge(RelationshipsRepo.layerMemory, UsersRepo.layerMemory))((it) => relationshipsRepoContract(it))
})
