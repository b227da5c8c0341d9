/**
 * The guilds domain's part of a user's personal data: the servers they are a member of, in join
 * order, in the export. Erasure leaves the memberships (the member shows as the deleted user, as
 * before this part existed); the rule that a user owning servers with other members cannot ask for
 * deletion is the `Memberships` port's `ownsGuildsWithOthers`, checked when deletion is requested.
 */
import type { Snowflake } from "@veche/platform"
import { PersonalData } from "@veche/users"
import { Effect, type Layer } from "effect"
import { GuildsRepo } from "./GuildsRepo.ts"

export const layer: Layer.Layer<never, never, PersonalData.PersonalData | GuildsRepo> = PersonalData.register(
  Effect.map(Effect.service(GuildsRepo), (guilds) => ({
    name: "guilds",
    level: PersonalData.GUILDS,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(
        guilds.guildsOf(userId),
        (ids): ReadonlyArray<PersonalData.Section> => [
          { file: "servers.json", about: "the servers you are a member of", content: ids }
        ]
      ),
    erase: () => Effect.void
  }))
)
