/**
 * Developer applications: an owner creates them (each with its bot user), reads and changes their
 * own, resets the bot's token and the client secret (each shown once, the previous one stopping at
 * once), and deletes them (the bot's token with the row, the bot out of its guilds, its name freed).
 * A bot token is answered with the bot's application (`authenticateBot`, the Authorization hot path).
 */
import { Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import { type Application, type Edit, MAX_PER_OWNER } from "./Application.ts"
import { ApplicationIcons } from "./ApplicationIcons.ts"
import { ApplicationSecrets } from "./ApplicationSecrets.ts"
import { ApplicationsConfig } from "./ApplicationsConfig.ts"
import {
  type ApplicationLimitReached,
  type IconRefused,
  type IconStorageNotConnected,
  type IconStorageUnavailable,
  MfaRequired,
  NoSuchApplication,
  NotApplicationOwner
} from "./ApplicationsErrors.ts"
import { ApplicationsRepo } from "./ApplicationsRepo.ts"
import { BotGuilds } from "./BotGuilds.ts"
import { BotUsers } from "./BotUsers.ts"
import { ClientGrants } from "./ClientGrants.ts"
import { OwnerSecurity } from "./OwnerSecurity.ts"

/** Two hex digests compared in constant time (their length is public: both are SHA-256). */
const sameDigest = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

export class Applications extends Context.Service<
  Applications,
  {
    readonly create: (
      ownerId: Snowflake.Snowflake,
      name: string
    ) => Effect.Effect<Application, MfaRequired | ApplicationLimitReached>
    readonly list: (ownerId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Application>>
    readonly get: (
      ownerId: Snowflake.Snowflake,
      id: Snowflake.Snowflake
    ) => Effect.Effect<Application, NoSuchApplication>
    /** An icon is stored (and the one it replaces deleted) only for the owner. */
    readonly update: (
      ownerId: Snowflake.Snowflake,
      id: Snowflake.Snowflake,
      edit: Edit
    ) => Effect.Effect<Application, NoSuchApplication | IconRefused | IconStorageNotConnected | IconStorageUnavailable>
    readonly remove: (ownerId: Snowflake.Snowflake, id: Snowflake.Snowflake) => Effect.Effect<void, NoSuchApplication>
    readonly resetBotToken: (
      ownerId: Snowflake.Snowflake,
      id: Snowflake.Snowflake
    ) => Effect.Effect<Redacted.Redacted<string>, NoSuchApplication>
    /** Unknown: NoSuchApplication; someone else's: NotApplicationOwner (the spec's 403). */
    readonly resetSecret: (
      ownerId: Snowflake.Snowflake,
      id: Snowflake.Snowflake
    ) => Effect.Effect<Redacted.Redacted<string>, NoSuchApplication | NotApplicationOwner>
    /** The application a bot belongs to (its bot user has the application's id). */
    readonly ofBot: (botId: Snowflake.Snowflake) => Effect.Effect<Application, NoSuchApplication>
    /** Any application by id, whoever owns it (an OAuth client as the consent page shows it). */
    readonly find: (id: Snowflake.Snowflake) => Effect.Effect<Application, NoSuchApplication>
    /**
     * The application when `secret` is its client secret (compared in constant time), none when it
     * is unknown, has no secret yet, or the secret is wrong.
     */
    readonly authenticateClient: (
      id: Snowflake.Snowflake,
      secret: Redacted.Redacted<string>
    ) => Effect.Effect<Option.Option<Application>>
    /** The application whose bot holds this token, none if no bot does. */
    /** `digest`: the token's `OpaqueSecrets.digestOf` when the caller already has it. */
    readonly authenticateBot: (
      token: Redacted.Redacted<string>,
      digest?: string
    ) => Effect.Effect<Option.Option<Application>>
    /**
     * Which of these bot token digests are held now, and by which bot: a token reset or its
     * application deleted leaves it out (the gateway asks this of its bots' open sessions, many at
     * once).
     */
    readonly botsHoldingTokens: (
      digests: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, Snowflake.Snowflake>>
  }
>()("@veche/applications/Applications") {
  static readonly layer: Layer.Layer<
    Applications,
    never,
    | ApplicationsRepo
    | ApplicationSecrets
    | ApplicationsConfig
    | ApplicationIcons
    | BotUsers
    | BotGuilds
    | ClientGrants
    | OwnerSecurity
    | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    Applications,
    Effect.gen(function* () {
      const repo = yield* ApplicationsRepo
      const secrets = yield* ApplicationSecrets
      const config = yield* ApplicationsConfig
      const icons = yield* ApplicationIcons
      const botUsers = yield* BotUsers
      const botGuilds = yield* BotGuilds
      const security = yield* OwnerSecurity
      const grants = yield* ClientGrants
      const ids = yield* Snowflake.SnowflakeGenerator

      const owned = (ownerId: Snowflake.Snowflake, id: Snowflake.Snowflake) =>
        Effect.flatMap(repo.findById(id), (found) =>
          Option.isSome(found) && found.value.ownerId === ownerId
            ? Effect.succeed(found.value)
            : Effect.fail(new NoSuchApplication())
        )

      const create = Spans.fn("Applications.create")(function* (ownerId: Snowflake.Snowflake, name: string) {
        if (config.requireMfa && !(yield* security.hasTwoFactor(ownerId))) return yield* new MfaRequired()
        const application: Application = {
          id: yield* ids.next,
          ownerId,
          name,
          description: "",
          icon: null,
          botPublic: true,
          botRequireCodeGrant: false,
          flags: 0,
          redirectUris: [],
          botTokenDigest: null,
          secretDigest: null,
          createdAt: yield* DateTime.now
        }
        // The cap first: a refused application must leave no bot user behind.
        yield* repo.insert(application, MAX_PER_OWNER)
        yield* botUsers.create(application.id, name)
        return application
      })

      const remove = Spans.fn("Applications.remove")(function* (ownerId: Snowflake.Snowflake, id: Snowflake.Snowflake) {
        const application = yield* owned(ownerId, id)
        // The row goes first: with it the bot token, so the bot cannot act while it is taken out.
        if (!(yield* repo.remove(id))) return yield* new NoSuchApplication()
        // Then what users granted it: its OAuth tokens stop before anything else is undone.
        yield* grants.revokeAll(id)
        yield* botGuilds.removeEverywhere(id, ownerId)
        yield* botUsers.retire(id)
        // Gone with the application: its icon is no longer served.
        if (application.icon !== null) yield* icons.remove(id, application.icon)
      })

      const update = Spans.fn("Applications.update")(function* (
        ownerId: Snowflake.Snowflake,
        id: Snowflake.Snowflake,
        edit: Edit
      ) {
        // Ownership first: nobody stores images under an application that is not theirs.
        const before = yield* owned(ownerId, id)
        const icon = edit.icon === undefined || edit.icon === null ? edit.icon : yield* icons.store(id, edit.icon)
        const updated = yield* repo.update(id, { ...edit, icon })
        if (Option.isNone(updated)) {
          // Deleted meanwhile: the icon just stored belongs to nothing.
          if (typeof icon === "string") yield* icons.remove(id, icon)
          return yield* new NoSuchApplication()
        }
        // The change is stored: the icon it replaced is no longer served (the same hash is the same image).
        if (before.icon !== null && before.icon !== updated.value.icon) yield* icons.remove(id, before.icon)
        return updated.value
      })

      const resetBotToken = Spans.fn("Applications.resetBotToken")(function* (
        ownerId: Snowflake.Snowflake,
        id: Snowflake.Snowflake
      ) {
        yield* owned(ownerId, id)
        const minted = yield* secrets.mint("bot")
        if (!(yield* repo.setBotToken(id, minted.digest))) return yield* new NoSuchApplication()
        return minted.token
      })

      const resetSecret = Spans.fn("Applications.resetSecret")(function* (
        ownerId: Snowflake.Snowflake,
        id: Snowflake.Snowflake
      ) {
        const found = yield* repo.findById(id)
        if (Option.isNone(found)) return yield* new NoSuchApplication()
        if (found.value.ownerId !== ownerId) return yield* new NotApplicationOwner()
        const minted = yield* secrets.mint("secret")
        if (!(yield* repo.setSecret(id, minted.digest))) return yield* new NoSuchApplication()
        return minted.token
      })

      const find = (id: Snowflake.Snowflake) =>
        Effect.flatMap(repo.findById(id), (found) =>
          Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(new NoSuchApplication())
        )

      const authenticateClient = Spans.fn("Applications.authenticateClient")(function* (
        id: Snowflake.Snowflake,
        secret: Redacted.Redacted<string>
      ) {
        const found = yield* repo.findById(id)
        // The digest is computed either way, so an unknown client costs what a known one does.
        const presented = yield* secrets.digest(secret)
        if (Option.isNone(found) || found.value.secretDigest === null) return Option.none()
        return sameDigest(found.value.secretDigest, presented) ? found : Option.none()
      })

      return Applications.of({
        create,
        list: repo.listByOwner,
        get: owned,
        update,
        remove,
        resetBotToken,
        resetSecret,
        find,
        authenticateClient,
        ofBot: find,
        // Untraced: every bot request passes here (as Sessions.authenticate for users).
        authenticateBot: (token, digest) =>
          digest === undefined
            ? Effect.flatMap(secrets.digest(token), repo.findByBotToken)
            : repo.findByBotToken(digest),
        botsHoldingTokens: repo.botsHoldingTokens
      })
    })
  )
}
