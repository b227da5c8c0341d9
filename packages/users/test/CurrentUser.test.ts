/**
 * CurrentUser on memory repositories with mocked neighbours: what `GET /users/@me` shows, the
 * guild order over the servers the user is in, an account gone while its token lived, and an
 * account its request already read (CurrentUserPrefetch, set by the middleware of GET /users/@me).
 */
import { describe, expect, layer } from "@effect/vitest"
import { DateTime, Effect, Option } from "effect"
import { CurrentUser } from "../src/CurrentUser.ts"
import { CurrentUserPrefetch } from "../src/CurrentUserPrefetch.ts"
import * as Profile from "../src/Profile.ts"
import { Profiles } from "../src/Profiles.ts"
import * as World from "./support/UsersWorld.ts"

const { ALICE, BOB, CAROL, GUILD_A, GUILD_B } = World

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

    it.effect("a prefetched account of the same user is shown as read; another user's is ignored", () =>
      Effect.gen(function* () {
        const current = yield* CurrentUser
        const prefetched = {
          userId: ALICE,
          details: Option.some({
            user: {
              id: ALICE,
              username: "alice_read",
              displayName: "Read",
              createdAt: DateTime.makeUnsafe(Date.UTC(2026, 0, 1))
            },
            profile: { ...Profile.DEFAULT, guildOrder: [GUILD_B] },
            maskedPhone: null,
            email: null,
            emailVerified: false,
            mfaEnabled: true,
            emailPending: null
          }),
          guildIds: [GUILD_A, GUILD_B],
          premiumType: 2
        }
        const shown = yield* current.view(ALICE, false).pipe(Effect.provideService(CurrentUserPrefetch, prefetched))
        expect(shown).toMatchObject({
          username: "alice_read",
          global_name: "Read",
          mfa_enabled: true,
          premium_type: 2,
          email: null,
          guild_order: [GUILD_B, GUILD_A]
        })
        // CAROL's view reads CAROL's account even with ALICE's prefetch in place
        yield* World.addUser(CAROL, "carol")
        const carol = yield* current.view(CAROL, false).pipe(Effect.provideService(CurrentUserPrefetch, prefetched))
        expect(carol).toMatchObject({
          id: CAROL,
          username: "carol",
          mfa_enabled: false,
          premium_type: 0,
          guild_order: []
        })
        // a prefetch that found the account gone is NoSuchUser, as a read would be
        const gone = yield* Effect.flip(
          current
            .view(ALICE, false)
            .pipe(Effect.provideService(CurrentUserPrefetch, { ...prefetched, details: Option.none() }))
        )
        expect(gone._tag).toBe("NoSuchUser")
      })
    )
  })
})
