/**
 * CurrentUser on memory repositories with mocked neighbours: what `GET /users/@me` shows, the
 * guild order over the servers the user is in, and an account gone while its token lived.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CurrentUser } from "../src/CurrentUser.ts"
import { Profiles } from "../src/Profiles.ts"
import * as World from "./support/UsersWorld.ts"

const { ALICE, BOB, GUILD_A, GUILD_B } = World

describe("CurrentUser", () => {
  layer(World.layer)((it) => {
    it.effect("shows the public fields, the account's details and the servers in join order", () =>
      Effect.gen(function* () {
        yield* World.addUser(ALICE, "alice")
        yield* (yield* Profiles).edit(ALICE, { bio: "hi" })
        expect(yield* (yield* CurrentUser).view(ALICE, false)).toEqual({
          id: ALICE,
          username: "alice",
          discriminator: "0",
          global_name: null,
          avatar: null,
          banner: null,
          accent_color: null,
          avatar_decoration_data: null,
          public_flags: 0,
          bot: false,
          bio: "hi",
          flags: 0,
          premium_type: 0,
          mfa_enabled: false,
          locale: "ru",
          verified: true,
          email: "alice@example.org",
          email_pending: "new@example.org",
          phone: "+7 *** *** ** 01",
          guild_order: [GUILD_A, GUILD_B]
        })
      })
    )

    it.effect("the chosen order first (servers left dropped), then the rest; no email_pending without one", () =>
      Effect.gen(function* () {
        yield* World.addUser(BOB, "bob")
        yield* (yield* Profiles).setGuildOrder(ALICE, [GUILD_B, "1311000000000000999"])
        const alice = yield* (yield* CurrentUser).view(ALICE, false)
        expect(alice.guild_order).toEqual([GUILD_B, GUILD_A])
        const bob = yield* (yield* CurrentUser).view(BOB, true)
        expect(bob).toMatchObject({ bot: true, bio: "", email: null, verified: false, phone: null })
        expect("email_pending" in bob).toBe(false)
      })
    )

    it.effect("an unknown user (the account is gone) is NoSuchUser", () =>
      Effect.gen(function* () {
        const refused = yield* Effect.flip((yield* CurrentUser).view(GUILD_A, false))
        expect(refused._tag).toBe("NoSuchUser")
      })
    )
  })
})
