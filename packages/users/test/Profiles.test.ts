/**
 * Profiles on memory repositories with mocked neighbours: the edit rules (empty texts remove, a
 * refused image changes nothing, replaced images are deleted) and the dispatches each change
 * publishes, with the payloads and audiences the gateway relies on.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Ref } from "effect"
import { Profiles } from "../src/Profiles.ts"
import { ProfilesRepo } from "../src/ProfilesRepo.ts"
import { BLOCKED, FRIEND } from "../src/Relationship.ts"
import { UsersRepo } from "../src/UsersRepo.ts"
import * as World from "./support/UsersWorld.ts"

const { ALICE, BOB, CAROL, GUILD_A, GUILD_B } = World

const setUp = Effect.gen(function* () {
  yield* World.addUser(ALICE, "alice")
  yield* World.addUser(BOB, "bob")
  yield* World.addUser(CAROL, "carol")
  // Bob is Alice's friend; Carol is blocked: she hears nothing.
  yield* World.relate(ALICE, BOB, FRIEND)
  yield* World.relate(ALICE, CAROL, BLOCKED)
})

describe("Profiles.edit", () => {
  layer(World.layer)((it) => {
    it.effect("sets the texts and announces the user to themselves, friends and servers", () =>
      Effect.gen(function* () {
        yield* setUp
        const profiles = yield* Profiles
        yield* profiles.edit(ALICE, { displayName: "Alice", bio: "hello" })
        const user = {
          id: ALICE,
          username: "alice",
          global_name: "Alice",
          avatar: null,
          banner: null
        }
        expect(yield* World.published).toEqual([
          { type: "USER_UPDATE", userIds: [ALICE, BOB], data: user },
          { type: "GUILD_MEMBER_UPDATE", userIds: [], guildIds: [GUILD_A, GUILD_B], data: { user } }
        ])
        expect((yield* (yield* ProfilesRepo).get(ALICE)).bio).toBe("hello")
      })
    )

    it.effect("empty texts remove: the display name falls back to the username", () =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        yield* profiles.edit(ALICE, { displayName: "  ", bio: "" })
        const user = yield* (yield* UsersRepo).findById(ALICE)
        expect(user._tag === "Some" && user.value.displayName).toBeNull()
        expect((yield* (yield* ProfilesRepo).get(ALICE)).bio).toBeNull()
        // Undefined leaves a field as it is.
        yield* profiles.edit(ALICE, { bio: "again" })
        yield* profiles.edit(ALICE, {})
        expect((yield* (yield* ProfilesRepo).get(ALICE)).bio).toBe("again")
      })
    )
  })

  layer(World.layer)((it) => {
    it.effect("a user in no server is announced only to themselves and friends", () =>
      Effect.gen(function* () {
        yield* setUp
        yield* (yield* Profiles).edit(CAROL, { displayName: "Carol" })
        expect((yield* World.published).map((event) => event.type)).toEqual(["USER_UPDATE"])
        expect((yield* World.published)[0]?.userIds).toEqual([CAROL])
      })
    )
  })

  layer(World.layer)((it) => {
    it.effect("stores images, deletes the ones they replace, keeps an unchanged one", () =>
      Effect.gen(function* () {
        yield* setUp
        yield* World.givePlus(ALICE)
        const profiles = yield* Profiles
        yield* profiles.edit(ALICE, { avatar: "data:image/png;base64,AA==", banner: "data:image/png;base64,AA==" })
        expect(yield* (yield* ProfilesRepo).get(ALICE)).toMatchObject({ avatar: "avatar-1", banner: "banner-2" })
        expect(yield* World.removedImages).toEqual([])
        // A new avatar replaces the old one; removing the banner deletes it too.
        yield* profiles.edit(ALICE, { avatar: "data:image/png;base64,AQ==", banner: null })
        expect(yield* (yield* ProfilesRepo).get(ALICE)).toMatchObject({ avatar: "avatar-3", banner: null })
        expect(yield* World.removedImages).toEqual([`avatar/${ALICE}/avatar-1`, `banner/${ALICE}/banner-2`])
        const last = (yield* World.published).findLast((event) => event.type === "USER_UPDATE")
        expect(last?.data).toMatchObject({ avatar: "avatar-3", banner: null })
      })
    )

    it.effect("a refused image changes nothing and announces nothing", () =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const before = (yield* World.published).length
        const refused = yield* Effect.flip(profiles.edit(ALICE, { displayName: "Changed", avatar: "not an image" }))
        expect(refused).toMatchObject({ _tag: "ImageRefused", field: "avatar", code: "IMAGE_INVALID" })
        const user = yield* (yield* UsersRepo).findById(ALICE)
        expect(user._tag === "Some" && user.value.displayName).toBeNull()
        expect((yield* World.published).length).toBe(before)
      })
    )

    it.effect("without Plus a banner is refused before any image is stored, and an avatar keeps its first frame", () =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const seen = yield* World.Recorded
        const before = (yield* Ref.get(seen.animations)).length
        const refused = yield* Effect.flip(
          profiles.edit(BOB, { bio: "x", avatar: "data:image/gif;base64,AA==", banner: "data:image/png;base64,AA==" })
        )
        expect(refused._tag).toBe("BannerRequiresPlus")
        expect((yield* Ref.get(seen.animations)).length).toBe(before)
        expect((yield* (yield* ProfilesRepo).get(BOB)).bio).toBeNull()
        yield* profiles.edit(BOB, { avatar: "data:image/gif;base64,AA==", banner: null })
        yield* World.givePlus(BOB)
        yield* profiles.edit(BOB, { avatar: "data:image/gif;base64,AA==", banner: "data:image/png;base64,AA==" })
        expect((yield* Ref.get(seen.animations)).slice(before)).toEqual([
          "avatar first_frame",
          "avatar keep",
          "banner keep"
        ])
      })
    )

    it.effect("a storage outage is the caller's refusal, with nothing changed", () =>
      Effect.gen(function* () {
        const seen = yield* World.Recorded
        yield* World.givePlus(ALICE)
        yield* Ref.set(seen.storageDown, true)
        const refused = yield* Effect.flip(
          (yield* Profiles).edit(ALICE, { bio: "x", banner: "data:image/png;base64,AA==" })
        )
        yield* Ref.set(seen.storageDown, false)
        expect(refused._tag).toBe("ImageStorageUnavailable")
        expect((yield* (yield* ProfilesRepo).get(ALICE)).bio).toBeNull()
      })
    )
  })
})

describe("Profiles.editSettings", () => {
  layer(World.layer)((it) => {
    it.effect("answers the settings and announces them to the user alone (presence is the gateway's)", () =>
      Effect.gen(function* () {
        yield* setUp
        const settings = yield* (yield* Profiles).editSettings(ALICE, { status: "dnd", customStatus: { text: "busy" } })
        const view = { status: "dnd", custom_status: { text: "busy" }, theme: "dark", locale: "ru" }
        expect(settings).toEqual(view)
        expect(yield* World.published).toEqual([{ type: "USER_SETTINGS_UPDATE", userIds: [ALICE], data: view }])
      })
    )

    it.effect("an empty custom status removes it; the status survives as chosen", () =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        const settings = yield* profiles.editSettings(ALICE, { status: "invisible", customStatus: { text: " " } })
        expect(settings).toMatchObject({ status: "invisible", custom_status: null })
        // Undefined leaves both as they are; null removes the custom status.
        yield* profiles.editSettings(ALICE, { customStatus: { text: "back" } })
        expect(yield* profiles.editSettings(ALICE, {})).toMatchObject({
          status: "invisible",
          custom_status: { text: "back" }
        })
        expect(yield* profiles.editSettings(ALICE, { customStatus: null })).toMatchObject({ custom_status: null })
        expect(yield* profiles.settings(ALICE)).toMatchObject({ status: "invisible", custom_status: null })
      })
    )
  })
})

describe("Profiles", () => {
  layer(World.layer)((it) => {
    it.effect("keeps the guild order as chosen, duplicates dropped", () =>
      Effect.gen(function* () {
        yield* setUp
        yield* (yield* Profiles).setGuildOrder(ALICE, [GUILD_B, GUILD_A, GUILD_B])
        expect((yield* (yield* ProfilesRepo).get(ALICE)).guildOrder).toEqual([GUILD_B, GUILD_A])
        expect(yield* World.published).toEqual([])
      })
    )

    it.effect("shows a user as everybody sees them; an unknown one is NoSuchUser", () =>
      Effect.gen(function* () {
        const profiles = yield* Profiles
        expect(yield* profiles.show(BOB)).toMatchObject({ id: BOB, username: "bob", discriminator: "0", bot: false })
        const missing = yield* Effect.flip(profiles.show(World.GUILD_A))
        expect(missing._tag).toBe("NoSuchUser")
      })
    )
  })
})
