/** A user for the contract suites of ports whose rows refer to users (the PostgreSQL tables do). */
import type { Snowflake } from "@veche/platform"
import { DateTime, Effect } from "effect"
import { UsersRepo } from "../../src/UsersRepo.ts"

let counter = 0

/** Inserts a user with a name unique to this process and run; answers its id. */
export const insertUser = (ids: Snowflake.SnowflakeGenerator["Service"], prefix: string) =>
  Effect.gen(function* () {
    const id = yield* ids.next
    yield* (yield* UsersRepo).insert({
      id,
      username: `${prefix}_${process.pid}_${Date.now() % 1_000_000}_${++counter}`,
      displayName: null,
      createdAt: DateTime.makeUnsafe(Math.floor(Date.now()))
    })
    return id
  })
