/**
 * Who else hears of a user's own changes: their friends (by user id) and the servers they are in
 * (by guild id; the gateway resolves the members). Direct-message partners join with the messages work.
 */
import type { Snowflake } from "@veche/platform"
import { Effect } from "effect"
import type { Memberships } from "../Memberships.ts"
import { FRIEND } from "../Relationship.ts"
import type { RelationshipsRepo } from "../RelationshipsRepo.ts"

export interface Audience {
  readonly friends: ReadonlyArray<Snowflake.Snowflake>
  readonly guilds: ReadonlyArray<Snowflake.Snowflake>
}

export const of = (
  relationships: RelationshipsRepo["Service"],
  memberships: Memberships["Service"],
  userId: Snowflake.Snowflake
): Effect.Effect<Audience> =>
  Effect.all({
    friends: Effect.map(relationships.list(userId), (rows) =>
      rows.filter((row) => row.type === FRIEND).map((row) => row.otherId)
    ),
    guilds: memberships.guildsOf(userId)
  })
