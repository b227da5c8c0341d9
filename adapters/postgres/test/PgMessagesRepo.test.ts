import { describe, layer } from "@effect/vitest"
import { messagesRepoContract } from "@veche/messages/test/contracts/MessagesRepoContract"
import { Layer, Redacted } from "effect"
import * as PgMessagesRepo from "../src/PgMessagesRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("MessagesRepo (PostgreSQL)", () => {
  layer(PgMessagesRepo.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => messagesRepoContract(it))
})
