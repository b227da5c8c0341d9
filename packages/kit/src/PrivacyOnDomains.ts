/**
 * What the domains below privacy read of it, over its store alone: whether an account waits for its
 * deletion (guilds' `PendingDeletions`: no guild is handed to it). Read from privacy's deletion
 * requests directly, as `AccountDeletion.status` reads them: the guilds domain sits below privacy in
 * the stack, so it cannot ask that service, which is built above it.
 */
import { PendingDeletions } from "@veche/guilds"
import { DeletionsRepo } from "@veche/privacy"
import { Context, Effect, Layer, Option } from "effect"

export const pendingDeletions: Layer.Layer<never, never, DeletionsRepo.DeletionsRepo> = Layer.effectContext(
  Effect.map(Effect.service(DeletionsRepo.DeletionsRepo), (repo) =>
    Context.make(PendingDeletions.PendingDeletions, {
      isPending: (userId) =>
        Effect.map(repo.find(userId), (found) => Option.isSome(found) && found.value.state === "pending")
    })
  )
)
