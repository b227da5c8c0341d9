import { describe, layer } from "@effect/vitest"
import { ApplicationsRepo } from "@veche/applications"
import { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import { OAuthRepo } from "../src/OAuthRepo.ts"
import { oauthRepoContract } from "./contracts/OAuthRepoContract.ts"

describe("OAuthRepo (memory)", () => {
  layer(
    Layer.mergeAll(
      OAuthRepo.layerMemory,
      ApplicationsRepo.ApplicationsRepo.layerMemory,
      UsersRepo.UsersRepo.layerMemory
    )
  )((it) => oauthRepoContract(it))
})
