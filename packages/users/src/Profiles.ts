/**
 * A user's profile and settings, changed by the user (the profile routes) or anyone else acting on
 * them (a gateway, an admin tool): the same rules and the same dispatches whoever calls. Empty
 * texts mean "remove" (the display name then falls back to the username); only status and custom
 * status change in the settings; every change is announced on the EventBus (USER_UPDATE,
 * GUILD_MEMBER_UPDATE, USER_SETTINGS_UPDATE; payloads in UserDispatches; the gateway's presence
 * turns a settings change into PRESENCE_UPDATE when the user is online).
 */
import { EventBus, type Snowflake, Spans } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import * as Audience from "./internal/Audience.ts"
import { Memberships } from "./Memberships.ts"
import type * as Profile from "./Profile.ts"
import { ProfileEntitlements, FREE as ProfileEntitlementsFree } from "./ProfileEntitlements.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import * as PublicUser from "./PublicUser.ts"
import { RelationshipsRepo } from "./RelationshipsRepo.ts"
import type { UserSettingsUpdate } from "./UserDispatches.ts"
import { type Kind, UserImages } from "./UserImages.ts"
import {
  BannerRequiresPlus,
  type ImageRefused,
  type ImageStorageNotConnected,
  type ImageStorageUnavailable,
  NoSuchUser
} from "./UsersErrors.ts"
import { UsersRepo } from "./UsersRepo.ts"

/** A profile edit: undefined leaves a field, null or "" removes it, an image is a data URI. */
export interface ProfileEdit {
  readonly displayName?: string | null | undefined
  readonly bio?: string | null | undefined
  readonly avatar?: string | null | undefined
  readonly banner?: string | null | undefined
}

/** A settings edit: undefined leaves a field; a custom status that is null or has no text removes it. */
export interface SettingsEdit {
  readonly status?: Profile.Status | undefined
  readonly customStatus?: { readonly text?: string | null | undefined } | null | undefined
}

/** The settings as their owner sees them (and USER_SETTINGS_UPDATE carries). */
export type Settings = UserSettingsUpdate

type ImageFailure = BannerRequiresPlus | ImageRefused | ImageStorageNotConnected | ImageStorageUnavailable

export const settingsView = (profile: Profile.Profile): Settings => ({
  status: profile.status,
  custom_status: profile.customStatus,
  theme: profile.theme,
  locale: profile.locale
})

/** "" and null both remove. */
const textOrNull = (text: string | null | undefined): string | null | undefined =>
  text === undefined ? undefined : text === null || text.trim() === "" ? null : text

export class Profiles extends Context.Service<
  Profiles,
  {
    /**
     * Applies the edit and announces it (USER_UPDATE, GUILD_MEMBER_UPDATE); a refused image changes
     * nothing. Without Plus (ProfileEntitlements) a banner is refused and an animated avatar is kept
     * to its first frame.
     */
    readonly edit: (userId: Snowflake.Snowflake, edit: ProfileEdit) => Effect.Effect<void, ImageFailure>
    readonly settings: (userId: Snowflake.Snowflake) => Effect.Effect<Settings>
    /** Applies the edit and announces it to the user's sessions (USER_SETTINGS_UPDATE; presence follows in the gateway). */
    readonly editSettings: (userId: Snowflake.Snowflake, edit: SettingsEdit) => Effect.Effect<Settings>
    /** Keeps the order as chosen (duplicates dropped); it is shown filtered to the servers the user is in. */
    readonly setGuildOrder: (userId: Snowflake.Snowflake, guildIds: ReadonlyArray<string>) => Effect.Effect<void>
    /** A user as everybody sees them (an application's bot user with `bot: true`, as its record says). */
    readonly show: (userId: Snowflake.Snowflake) => Effect.Effect<PublicUser.PublicUser, NoSuchUser>
  }
>()("@veche/users/Profiles") {
  static readonly layer: Layer.Layer<
    Profiles,
    never,
    UsersRepo | ProfilesRepo | RelationshipsRepo | Memberships | UserImages | EventBus.EventBus
  > = Layer.effect(
    Profiles,
    Effect.gen(function* () {
      const users = yield* UsersRepo
      const profiles = yield* ProfilesRepo
      const relationships = yield* RelationshipsRepo
      const memberships = yield* Memberships
      const images = yield* UserImages
      const events = yield* EventBus.EventBus
      const entitlements = yield* ProfileEntitlements

      /** The new hash of an uploaded image, null to remove it, undefined to leave it. */
      const image = (userId: Snowflake.Snowflake, kind: Kind, value: string | null | undefined, animated: boolean) =>
        typeof value === "string"
          ? images.store(kind, userId, value, animated ? "keep" : "first_frame")
          : Effect.succeed(value)

      /** Deletes the image a user stopped showing; the same hash on both sides is the same object and stays. */
      const discard = (kind: Kind, userId: Snowflake.Snowflake, before: string | null, after: string | null) =>
        before === null || before === after ? Effect.void : images.remove(kind, userId, before)

      const edit = Spans.fn("Profiles.edit")(function* (userId: Snowflake.Snowflake, edit: ProfileEdit) {
        // Images first: a refused image changes nothing else (no half-applied edit).
        const uploads = typeof edit.avatar === "string" || typeof edit.banner === "string"
        const allowed = uploads ? yield* entitlements.of(userId) : ProfileEntitlementsFree
        // Checked before any image is processed; removing a banner (null) is always allowed.
        if (typeof edit.banner === "string" && !allowed.banner) return yield* new BannerRequiresPlus()
        const avatar = yield* image(userId, "avatar", edit.avatar, allowed.animatedAvatar)
        const banner = yield* image(userId, "banner", edit.banner, true)
        const displayName = textOrNull(edit.displayName)
        if (displayName !== undefined) yield* users.setDisplayName(userId, displayName)
        const before = avatar === undefined && banner === undefined ? undefined : yield* profiles.get(userId)
        const profile = yield* profiles.update(userId, { bio: textOrNull(edit.bio), avatar, banner })
        // Once the new hashes are stored, the images they replaced are deleted (not served any more).
        if (before !== undefined) {
          yield* discard("avatar", userId, before.avatar, profile.avatar)
          yield* discard("banner", userId, before.banner, profile.banner)
        }
        const user = yield* users.findById(userId)
        if (Option.isNone(user)) return
        const data = {
          id: userId,
          username: user.value.username,
          global_name: user.value.displayName,
          avatar: profile.avatar,
          banner: profile.banner
        }
        const { friends, guilds } = yield* Audience.of(relationships, memberships, userId)
        yield* events.publish({ type: "USER_UPDATE", userIds: [userId, ...friends], data })
        if (guilds.length > 0) {
          yield* events.publish({ type: "GUILD_MEMBER_UPDATE", userIds: [], guildIds: guilds, data: { user: data } })
        }
      })

      const settings = (userId: Snowflake.Snowflake) => Effect.map(profiles.get(userId), settingsView)

      const editSettings = Spans.fn("Profiles.editSettings")(function* (
        userId: Snowflake.Snowflake,
        edit: SettingsEdit
      ) {
        const text = edit.customStatus === undefined ? undefined : textOrNull(edit.customStatus?.text ?? null)
        const profile = yield* profiles.update(userId, {
          status: edit.status,
          customStatus: text === undefined ? undefined : text === null ? null : { text }
        })
        const view = settingsView(profile)
        // The user's sessions hear of it; the gateway's presence (which knows whether the user is
        // online at all) turns it into PRESENCE_UPDATE for friends and servers when what they see changes.
        yield* events.publish({ type: "USER_SETTINGS_UPDATE", userIds: [userId], data: view })
        return view
      })

      const setGuildOrder = Spans.fn("Profiles.setGuildOrder")(function* (
        userId: Snowflake.Snowflake,
        guildIds: ReadonlyArray<string>
      ) {
        yield* profiles.update(userId, { guildOrder: [...new Set(guildIds)] })
      })

      const show = Spans.fn("Profiles.show")(function* (userId: Snowflake.Snowflake) {
        const user = yield* users.findById(userId)
        if (Option.isNone(user)) return yield* new NoSuchUser()
        return PublicUser.view(user.value, yield* profiles.get(userId), user.value.bot === true)
      })

      return Profiles.of({ edit, settings, editSettings, setGuildOrder, show })
    })
  )
}
