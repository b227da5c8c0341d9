import { describe, layer } from "@effect/vitest"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { EmailLinksRepo } from "../src/EmailLinksRepo.ts"
import { emailLinksRepoContract } from "./contracts/EmailLinksRepoContract.ts"

describe("EmailLinksRepo (memory)", () => {
  layer(Layer.merge(EmailLinksRepo.layerMemory, UsersRepo.UsersRepo.layerMemory))((it) => emailLinksRepoContract(it))
})
