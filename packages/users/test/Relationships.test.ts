/**
 * Relationships on memory repositories: each row with the other user as everybody sees them,
 * oldest first, rows whose other user is gone left out; `since` is when the row was written.
 */
import { describe, expect, layer } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import { TestClock } from "effect/testing"
import { BLOCKED, FRIEND, OUTGOING } from "../src/Relationship.ts"
import { Relationships } from "../src/Relationships.ts"
import * as World from "./support/UsersWorld.ts"

const { ALICE, BOB, CAROL } = World
const GONE = World.GUILD_A

describe("Relationships", () => {
  layer(World.layer)((it) => {
    it.effect("lists the user's rows with the other user, oldest first, leaving out users that are gone", () =>
      Effect.gen(function* () {
        yield* World.addUser(ALICE, "alice")
        yield* World.addUser(BOB, "bob")
        yield* World.addUser(CAROL, "carol")
        const first = yield* DateTime.now
        yield* World.relate(ALICE, BOB, FRIEND)
        yield* TestClock.adjust("1 hour")
        yield* World.relate(ALICE, GONE, OUTGOING)
        yield* World.relate(ALICE, CAROL, BLOCKED)
        yield* World.relate(BOB, ALICE, FRIEND)
        const listed = yield* (yield* Relationships).list(ALICE)
        expect(listed.map(({ relationship, user }) => [relationship.type, user.username])).toEqual([
          [FRIEND, "bob"],
          [BLOCKED, "carol"]
        ])
        expect(listed[0]?.relationship.since).toEqual(first)
        expect(listed[1]?.relationship.since).toEqual(DateTime.add(first, { hours: 1 }))
        expect(listed[0]?.user).toMatchObject({ id: BOB, bot: false, global_name: null })
        expect(yield* (yield* Relationships).list(CAROL)).toEqual([])
      })
    )
  })
})
