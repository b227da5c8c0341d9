/**
 * The applications domain over the domains that answer its ports: whether an owner has 2FA comes
 * from the accounts domain (its AccountDetails answer), the bot's guilds from the guilds domain
 * (the servers it is in, each left as a kicked bot leaves, its managed role with it), and the bot's user row from the users
 * store, named after the application (its username made unique the way the store enforces it).
 * An application's icon is stored by media (ProfileImages, as `app-icons/{application_id}/{hash}`).
 * Its part of a user's personal data is registered here too (the applications a user owns). The
 * OAuth grants a deleted application loses are ended over the OAuth store (its ClientGrants port).
 */
import {
  ApplicationIcons,
  Applications,
  ApplicationsConfig,
  ApplicationsDomain,
  ApplicationsErrors,
  BotGuilds,
  BotUsers,
  OwnerSecurity
} from "@veche/applications"
import { type AccountSnapshot, AuthAccountDetails } from "@veche/auth"
import { Guilds } from "@veche/guilds"
import { ProfileImages } from "@veche/media"
import { OAuthClientGrants, type OAuthRepo } from "@veche/oauth"
import { type Snowflake, Spans } from "@veche/platform"
import { AccountDetails, Memberships, PersonalData, UsersRepo } from "@veche/users"
import { type Config, DateTime, Effect, Layer, Option } from "effect"
import type { Digest, SecureRandom } from "effect/crypto"

/** A username from an application's name: the registration alphabet, 2-32 long. */
const usernameFrom = (name: string, id: string, attempt: number): string => {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9_.]/g, "_")
    .slice(0, 24)
    .padEnd(2, "_")
  // Later attempts take the id's tail: unique enough and stable for one application.
  return attempt === 0 ? base : `${base.slice(0, 32 - 8)}_${id.slice(-(6 + attempt)).slice(0, 7)}`
}

const botUsers = Layer.effect(
  BotUsers.BotUsers,
  Effect.map(Effect.service(UsersRepo.UsersRepo), (users) =>
    BotUsers.BotUsers.of({
      create: Spans.fn("BotUsers.create")(function* (id, name) {
        const createdAt = yield* DateTime.now
        for (let attempt = 0; ; attempt++) {
          const username = usernameFrom(name, id, attempt)
          const inserted = yield* users.insert({ id, username, displayName: name, createdAt, bot: true }).pipe(
            Effect.as(true),
            Effect.catchTag("UsernameTaken", () => Effect.succeed(false)),
            Effect.orDie
          )
          if (inserted) return username
          if (attempt >= 2) return yield* Effect.die(new Error(`no free username for bot ${id}`))
        }
      }),
      retire: (id) => users.anonymise(id)
    })
  )
)

const applicationIcons = Layer.effect(
  ApplicationIcons.ApplicationIcons,
  Effect.map(Effect.service(ProfileImages.ProfileImages), (images) =>
    ApplicationIcons.ApplicationIcons.of({
      store: (applicationId, dataUri) =>
        images.store("app-icons", applicationId, dataUri).pipe(
          Effect.catchTags({
            ImageRejected: (error) =>
              Effect.fail(new ApplicationsErrors.IconRefused({ code: error.code, message: error.message })),
            StorageNotConnected: () => Effect.fail(new ApplicationsErrors.IconStorageNotConnected()),
            StorageUnavailable: (error) =>
              Effect.andThen(
                Effect.logWarning("media storage unavailable", error.reason),
                Effect.fail(new ApplicationsErrors.IconStorageUnavailable())
              )
          })
        ),
      remove: (applicationId, hash) => ProfileImages.discard(images, "app-icons", applicationId, hash)
    })
  )
)

const ownerSecurity = Layer.effect(
  OwnerSecurity.OwnerSecurity,
  Effect.map(Effect.service(AccountDetails.AccountDetails), (accounts) =>
    OwnerSecurity.OwnerSecurity.of({
      hasTwoFactor: (userId) =>
        Effect.map(
          accounts.read(userId),
          Option.exists((account) => account.mfaEnabled)
        )
    })
  )
).pipe(Layer.provide(AuthAccountDetails.layer))

const botGuilds = Layer.effect(
  BotGuilds.BotGuilds,
  Effect.gen(function* () {
    const guilds = yield* Guilds.Guilds
    const memberships = yield* Memberships.Memberships
    return BotGuilds.BotGuilds.of({
      removeEverywhere: Spans.fn("BotGuilds.removeEverywhere")(function* (botId, ownerId) {
        for (const guildId of yield* memberships.guildsOf(botId)) yield* guilds.removeBot(botId, guildId, ownerId)
      })
    })
  })
)

/** Above the guilds in the personal-data order: erased before the account its bots refer to. */
const APPLICATIONS_LEVEL = PersonalData.GUILDS + 10

/**
 * The applications domain's part of a user's personal data: the applications they own in the
 * export (never a token or secret; no file when they own none); deletion deletes them as their owner would (bot tokens
 * revoked, bots out of their guilds, bot names freed).
 */
const personalData = PersonalData.register(
  Effect.map(Effect.service(Applications.Applications), (applications) => ({
    name: "applications",
    level: APPLICATIONS_LEVEL,
    export: (userId: Snowflake.Snowflake) =>
      Effect.map(
        applications.list(userId),
        // No file for a user without applications: most archives stay as they were.
        (owned): ReadonlyArray<PersonalData.Section> =>
          owned.length === 0
            ? []
            : [
                {
                  file: "applications.json",
                  about: "the developer applications you own",
                  content: owned.map((application) => ({
                    id: application.id,
                    name: application.name,
                    description: application.description,
                    bot_public: application.botPublic,
                    bot_require_code_grant: application.botRequireCodeGrant,
                    redirect_uris: application.redirectUris,
                    created_at: DateTime.formatIso(application.createdAt)
                  }))
                }
              ]
      ),
    // Idempotent: a second run finds nothing left to delete.
    erase: (userId: Snowflake.Snowflake) =>
      Effect.flatMap(applications.list(userId), (owned) =>
        Effect.forEach(owned, (application) => Effect.ignore(applications.remove(userId, application.id)), {
          discard: true
        })
      )
  }))
)

/** `SERVICE_APPLICATIONS_REQUIRE_MFA` is read from the host's ConfigProvider (default off). */
export const layer: Layer.Layer<
  ApplicationsDomain.Services,
  Config.ConfigError,
  | ApplicationsDomain.Repositories
  | Snowflake.SnowflakeGenerator
  | SecureRandom.SecureRandom
  | Digest.Digest
  | UsersRepo.UsersRepo
  | AccountSnapshot.AccountSnapshots
  | Guilds.Guilds
  | Memberships.Memberships
  | PersonalData.PersonalData
  | ProfileImages.ProfileImages
  | OAuthRepo.OAuthRepo
> = Layer.provideMerge(personalData, ApplicationsDomain.layer).pipe(
  Layer.provide(
    Layer.mergeAll(
      botUsers,
      ownerSecurity,
      botGuilds,
      applicationIcons,
      OAuthClientGrants.layer,
      ApplicationsConfig.ApplicationsConfig.layerConfig
    )
  )
)
