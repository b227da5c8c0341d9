/**
 * Changes to a user's profile and settings as the routes take them: empty texts mean "remove"
 * (the display name then falls back to the username), only status and custom status change in
 * the settings, and every change is announced on the EventBus (USER_UPDATE, USER_SETTINGS_UPDATE,
 * PRESENCE_UPDATE and GUILD_MEMBER_UPDATE, whose payloads the users domain declares in
 * UserDispatches; the guilds and friends work adds their audiences).
 */
import { type ImageKind, ProfileImages } from "@veche/media"
import type { EventBus, Snowflake } from "@veche/platform"
import {
  type Memberships,
  type Profile,
  type ProfilesRepo,
  Relationship,
  type RelationshipsRepo,
  type UsersRepo
} from "@veche/users"
import { Effect, Option } from "effect"
import * as MediaHandlers from "./MediaHandlers.ts"

export interface Sources {
  readonly users: UsersRepo.UsersRepo["Service"]
  readonly profiles: ProfilesRepo.ProfilesRepo["Service"]
  readonly events: EventBus.EventBus["Service"]
  readonly images: ProfileImages.ProfileImages["Service"]
  readonly relationships: RelationshipsRepo.RelationshipsRepo["Service"]
  readonly memberships: Memberships.Memberships["Service"]
}

const settingsView = (profile: Profile.Profile) => ({
  status: profile.status,
  custom_status: profile.customStatus,
  theme: profile.theme,
  locale: profile.locale
})

/** "" and null both remove. */
const textOrNull = (text: string | null | undefined): string | null | undefined =>
  text === undefined ? undefined : text === null || text.trim() === "" ? null : text

export const make = (sources: Sources) => {
  /** Who else hears of a user's changes: friends, and the servers the user is in. */
  const audience = (userId: Snowflake.Snowflake) =>
    Effect.all({
      friends: Effect.map(sources.relationships.list(userId), (rows) =>
        rows.filter((row) => row.type === Relationship.FRIEND).map((row) => row.otherId)
      ),
      guilds: sources.memberships.guildsOf(userId)
    })

  /** The new hash of an uploaded image, null to remove it, undefined to leave it. */
  const image = (
    userId: Snowflake.Snowflake,
    kind: ImageKind.ImageKind,
    field: string,
    value: string | null | undefined
  ) =>
    typeof value === "string"
      ? sources.images.store(kind, userId, value).pipe(Effect.catchTags(MediaHandlers.uploadErrors(field)))
      : Effect.succeed(value)

  const updateProfile = Effect.fn("ProfileEdits.updateProfile")(function* (
    userId: Snowflake.Snowflake,
    patch: {
      readonly display_name?: string | null
      readonly bio?: string | null
      readonly avatar?: string | null
      readonly banner?: string | null
    }
  ) {
    // Images first: a refused image changes nothing else (no half-applied edit).
    const avatar = yield* image(userId, "avatars", "avatar", patch.avatar)
    const banner = yield* image(userId, "user-banners", "banner", patch.banner)
    const displayName = textOrNull(patch.display_name)
    if (displayName !== undefined) yield* sources.users.setDisplayName(userId, displayName)
    const before = avatar === undefined && banner === undefined ? undefined : yield* sources.profiles.get(userId)
    const profile = yield* sources.profiles.update(userId, { bio: textOrNull(patch.bio), avatar, banner })
    // Once the new hashes are stored, the images they replaced are deleted (not served any more).
    if (before !== undefined) {
      yield* ProfileImages.discard(sources.images, "avatars", userId, before.avatar, profile.avatar)
      yield* ProfileImages.discard(sources.images, "user-banners", userId, before.banner, profile.banner)
    }
    const user = yield* sources.users.findById(userId)
    if (Option.isSome(user)) {
      const data = {
        id: userId,
        username: user.value.username,
        global_name: user.value.displayName,
        avatar: profile.avatar,
        banner: profile.banner
      }
      const { friends, guilds } = yield* audience(userId)
      // (direct-message partners join the audience with the messages work)
      yield* sources.events.publish({ type: "USER_UPDATE", userIds: [userId, ...friends], data })
      if (guilds.length > 0) {
        yield* sources.events.publish({
          type: "GUILD_MEMBER_UPDATE",
          userIds: [],
          guildIds: guilds,
          data: { user: data }
        })
      }
    }
  })

  const settings = (userId: Snowflake.Snowflake) => Effect.map(sources.profiles.get(userId), settingsView)

  const updateSettings = Effect.fn("ProfileEdits.updateSettings")(function* (
    userId: Snowflake.Snowflake,
    patch: {
      readonly status?: Profile.Status
      readonly custom_status?: { readonly text?: string | null } | null
    }
  ) {
    const text = patch.custom_status === undefined ? undefined : textOrNull(patch.custom_status?.text ?? null)
    const profile = yield* sources.profiles.update(userId, {
      status: patch.status,
      customStatus: text === undefined ? undefined : text === null ? null : { text }
    })
    const view = settingsView(profile)
    yield* sources.events.publish({ type: "USER_SETTINGS_UPDATE", userIds: [userId], data: view })
    // Others see an invisible user as offline; a custom status shows as an activity of type 4.
    const { friends, guilds } = yield* audience(userId)
    yield* sources.events.publish({
      type: "PRESENCE_UPDATE",
      userIds: friends,
      guildIds: guilds,
      data: {
        user: { id: userId },
        status: profile.status === "invisible" ? "offline" : profile.status,
        activities:
          profile.customStatus === null ? [] : [{ type: 4, name: "Custom Status", state: profile.customStatus.text }]
      }
    })
    return view
  })

  return { updateProfile, settings, updateSettings }
}
