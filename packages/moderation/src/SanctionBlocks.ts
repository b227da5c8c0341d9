/**
 * The accounts domain's AccountBlocks port, answered from the sanctions store: the account's block
 * as auth's `Block` record. (PostgreSQL's SessionsRepo reads the same rows with the session, in its
 * one token lookup; this port serves logins, refreshes, recoveries and the memory SessionsRepo.)
 */
import { AccountBlocks } from "@veche/auth"
import { Effect, Layer, Option } from "effect"
import * as Sanction from "./Sanction.ts"
import { SanctionsRepo } from "./SanctionsRepo.ts"

export const layer: Layer.Layer<AccountBlocks.AccountBlocks, never, SanctionsRepo> = Layer.effect(
  AccountBlocks.AccountBlocks,
  Effect.map(Effect.service(SanctionsRepo), (sanctions) =>
    AccountBlocks.AccountBlocks.of({
      find: (userId) => Effect.map(sanctions.find(userId, "block"), Option.map(Sanction.toBlock))
    })
  )
)
