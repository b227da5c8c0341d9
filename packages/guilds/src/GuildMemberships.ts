/** The users domain's Memberships port, answered from the guilds store. */
import { Memberships } from "@veche/users"
import { Effect, Layer } from "effect"
import { GuildsRepo } from "./GuildsRepo.ts"

export const layer: Layer.Layer<Memberships.Memberships, never, GuildsRepo> = Layer.effect(
  Memberships.Memberships,
  Effect.map(Effect.service(GuildsRepo), (guilds) =>
    Memberships.Memberships.of({ guildsOf: guilds.guildsOf, ownsGuildsWithOthers: guilds.ownsGuildsWithOthers })
  )
)
