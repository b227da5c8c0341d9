import { describe, layer } from "@effect/vitest"
import { MessagesRepo } from "../src/MessagesRepo.ts"
import { messagesRepoContract } from "./contracts/MessagesRepoContract.ts"

describe("MessagesRepo (memory)", () => {
  layer(MessagesRepo.layerMemory)((it) => messagesRepoContract(it))
})
