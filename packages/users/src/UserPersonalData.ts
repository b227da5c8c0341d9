/**
 * The users domain's part of a user's personal data: the name and profile in the export, and on
 * erasure the profile reset, the avatar and banner it showed deleted from storage (after the reset,
 * so a failed delete only orphans them) and the name freed. Every step can run twice.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { DateTime, Effect, type Layer, Option } from "effect"
import * as PersonalData from "./PersonalData.ts"
import * as Profile from "./Profile.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import { UserImages } from "./UserImages.ts"
import { UsersRepo } from "./UsersRepo.ts"

export const layer: Layer.Layer<never, never, PersonalData.PersonalData | UsersRepo | ProfilesRepo | UserImages> =
  PersonalData.register(
    Effect.gen(function* () {
      const users = yield* UsersRepo
      const profiles = yield* ProfilesRepo
      const images = yield* UserImages

      const exportOf = Spans.fn("UserPersonalData.export")(function* (userId: Snowflake.Snowflake) {
        const user = yield* users.findById(userId)
        const profile = yield* profiles.get(userId)
        const sections: ReadonlyArray<PersonalData.Section> = [
          {
            file: "account.json",
            content: {
              id: userId,
              username: Option.getOrNull(Option.map(user, (u) => u.username)),
              display_name: Option.getOrNull(Option.flatMap(user, (u) => Option.fromNullishOr(u.displayName))),
              created_at: Option.getOrNull(Option.map(user, (u) => DateTime.formatIso(u.createdAt)))
            }
          },
          {
            file: "profile.json",
            about: "your profile and settings",
            content: {
              bio: profile.bio,
              avatar: profile.avatar,
              banner: profile.banner,
              settings: {
                status: profile.status,
                custom_status: profile.customStatus,
                theme: profile.theme,
                locale: profile.locale
              },
              guild_order: profile.guildOrder
            }
          }
        ]
        return sections
      })

      const erase = Spans.fn("UserPersonalData.erase")(function* (userId: Snowflake.Snowflake) {
        const shown = yield* profiles.get(userId)
        yield* profiles.update(userId, Profile.DEFAULT)
        // a failed delete never fails the erasure (UserImages logs it): the image is only orphaned
        if (shown.avatar !== null) yield* images.remove("avatar", userId, shown.avatar)
        if (shown.banner !== null) yield* images.remove("banner", userId, shown.banner)
        yield* users.anonymise(userId)
      })

      return { name: "users", level: PersonalData.USERS, export: exportOf, erase }
    })
  )
