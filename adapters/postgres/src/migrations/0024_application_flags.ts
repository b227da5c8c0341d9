/**
 * Applications keep their v10 flags: an owner turns on the gateway's limited privileged intents
 * (the gateway lets the bot ask for GUILD_MEMBERS and GUILD_PRESENCES with them).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE applications ADD COLUMN flags INTEGER NOT NULL DEFAULT 0`
})
