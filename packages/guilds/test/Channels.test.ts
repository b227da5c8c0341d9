/**
 * Channels on memory stores: managing them needs Manage Channels, a parent must be a category of
 * the same guild, new channels go after their siblings, and an overwrite denying View Channel
 * hides the channel from the role it names.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Channels } from "../src/Channels.ts"
import { Invites } from "../src/Invites.ts"
import { Members } from "../src/Members.ts"
import * as Permissions from "../src/Permissions.ts"
import { Roles } from "../src/Roles.ts"
import * as World from "./support/GuildWorld.ts"

const { Flags } = Permissions

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

const setUp = Effect.gen(function* () {
  const owner = yield* World.user()
  const member = yield* World.user()
  const created = yield* World.guildWith(owner, [member])
  const category = created.channels.find((channel) => channel.type === 4 && channel.position === 0)
  if (category === undefined) throw new Error("a new guild has a text category")
  return { owner, member, created, guildId: created.guild.id, category }
})

describe("Channels", () => {
  it.effect("creating a channel needs Manage Channels; it goes after its siblings", () =>
    Effect.gen(function* () {
      const { owner, member, guildId, category } = yield* setUp
      const channels = yield* Channels
      expect(yield* tagOf(channels.create(member, guildId, { type: 0, name: "mine" }))).toBe("MissingPermission")
      const news = yield* channels.create(owner, guildId, { type: 0, name: "News Room", parentId: category.id })
      expect(news).toMatchObject({ parentId: category.id, position: 1, name: "news-room" })
      expect((yield* channels.list(member, guildId)).map((channel) => channel.id)).toContain(news.id)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a parent must be a category of this guild; a category has no parent", () =>
    Effect.gen(function* () {
      const { owner, guildId, category, created } = yield* setUp
      const channels = yield* Channels
      const general = World.generalOf(created)
      expect(yield* tagOf(channels.create(owner, guildId, { type: 0, name: "x", parentId: general }))).toBe(
        "InvalidField"
      )
      expect(yield* tagOf(channels.create(owner, guildId, { type: 4, name: "x", parentId: category.id }))).toBe(
        "InvalidField"
      )
      const elsewhere = yield* World.guildOf(owner)
      const foreign = elsewhere.channels.find((channel) => channel.type === 4)
      expect(
        yield* tagOf(channels.create(owner, guildId, { type: 0, name: "x", parentId: foreign?.id ?? category.id }))
      ).toBe("InvalidField")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an overwrite denying View Channel to @everyone hides the channel from members", () =>
    Effect.gen(function* () {
      const { owner, member, guildId } = yield* setUp
      const channels = yield* Channels
      const secret = yield* channels.create(owner, guildId, {
        type: 0,
        name: "secret",
        overwrites: [{ id: guildId, type: 0, allow: 0n, deny: Flags.ViewChannel }]
      })
      expect(yield* tagOf(channels.get(member, secret.id))).toBe("NoAccess")
      expect(yield* tagOf((yield* Invites).create(member, secret.id, {}))).toBe("NoAccess")
      yield* channels.get(owner, secret.id)
      // letting the member in by a member overwrite
      yield* channels.putOverwrite(owner, secret.id, { id: member.userId, type: 1, allow: Flags.ViewChannel, deny: 0n })
      yield* channels.get(member, secret.id)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("overwrites name a role or member of the guild and grant nothing the caller lacks", () =>
    Effect.gen(function* () {
      const { owner, member, guildId } = yield* setUp
      const stranger = yield* World.user()
      const channels = yield* Channels
      expect(
        yield* tagOf(
          channels.create(owner, guildId, {
            type: 0,
            name: "x",
            overwrites: [{ id: stranger.userId, type: 1, allow: 0n, deny: Flags.ViewChannel }]
          })
        )
      ).toBe("InvalidField")
      // a member who manages channels and roles, but cannot ban
      const role = yield* (yield* Roles).create(owner, guildId, {
        name: "builders",
        permissions: Flags.ManageChannels | Flags.ManageRoles | Flags.ViewChannel
      })
      yield* (yield* Members).update(owner, guildId, member.userId, { roleIds: [role.id] })
      const granting = (allow: bigint) =>
        channels.create(member, guildId, {
          type: 0,
          name: "x",
          overwrites: [{ id: role.id, type: 0, allow, deny: 0n }]
        })
      expect(yield* tagOf(granting(Flags.BanMembers))).toBe("MissingPermission")
      yield* granting(Flags.ViewChannel)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("deleting a channel needs Manage Channels; its invitations go with it", () =>
    Effect.gen(function* () {
      const { owner, member, guildId } = yield* setUp
      const channels = yield* Channels
      const invites = yield* Invites
      const room = yield* channels.create(owner, guildId, { type: 0, name: "room" })
      const code = yield* World.inviteTo(owner, room.id)
      expect(yield* tagOf(channels.remove(member, room.id))).toBe("MissingPermission")
      yield* channels.remove(owner, room.id)
      expect(yield* tagOf(channels.get(owner, room.id))).toBe("NoSuchChannel")
      expect(yield* tagOf(invites.get(code))).toBe("InviteNotFound")
    }).pipe(Effect.provide(World.layer))
  )
})
