/** Handlers of the Users group. */
import { UnknownUser } from "@veche/errors"
import { UsersRepo } from "@veche/users"
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"

export const layer = HttpApiBuilder.group(RestApi, "users", (handlers) =>
  Effect.gen(function* () {
    const users = yield* UsersRepo.UsersRepo
    return handlers.handle("me", () =>
      Effect.gen(function* () {
        const principal = yield* CurrentPrincipal
        // A valid token whose account is gone (deleted): the account is unknown now.
        const user = yield* Effect.flatMap(
          users.findById(principal.userId),
          Option.match({
            onNone: () => Effect.fail(new UnknownUser()),
            onSome: Effect.succeed
          })
        )
        return {
          id: user.id,
          username: user.username,
          discriminator: "0" as const,
          global_name: user.displayName,
          avatar: null,
          bot: principal.kind === "bot"
        }
      })
    )
  })
)
