/**
 * The port to the applications table, and its in-memory adapter. The per-owner cap is settled by
 * the adapter in the same step as the insert (PostgreSQL serialises an owner's inserts), so two
 * concurrent creations at 24 cannot both pass.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Ref } from "effect"
import type { Application, Changes } from "./Application.ts"
import { ApplicationLimitReached } from "./ApplicationsErrors.ts"

export class ApplicationsRepo extends Context.Service<
  ApplicationsRepo,
  {
    /** Inserts unless the owner already has `limit` applications. */
    readonly insert: (application: Application, limit: number) => Effect.Effect<void, ApplicationLimitReached>
    readonly findById: (id: Snowflake.Snowflake) => Effect.Effect<Option.Option<Application>>
    /** The owner's applications, oldest first. */
    readonly listByOwner: (ownerId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Application>>
    /** The application whose bot token has this digest. */
    readonly findByBotToken: (digest: string) => Effect.Effect<Option.Option<Application>>
    /** Which of these bot token digests are held now, and by which bot (application id): one lookup. */
    readonly botsHoldingTokens: (
      digests: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyMap<string, Snowflake.Snowflake>>
    /** Applies the changes; the application as it now is, none if unknown. */
    readonly update: (id: Snowflake.Snowflake, changes: Changes) => Effect.Effect<Option.Option<Application>>
    /** Replaces the bot token digest (the old token stops at once); false if unknown. */
    readonly setBotToken: (id: Snowflake.Snowflake, digest: string) => Effect.Effect<boolean>
    /** Replaces the client secret digest; false if unknown. */
    readonly setSecret: (id: Snowflake.Snowflake, digest: string) => Effect.Effect<boolean>
    /** Removes the application (and so its bot token and secret); false if unknown. */
    readonly remove: (id: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/applications/ApplicationsRepo") {
  static readonly layerMemory: Layer.Layer<ApplicationsRepo> = Layer.effect(
    ApplicationsRepo,
    Effect.gen(function* () {
      const byId = yield* Ref.make(new Map<string, Application>())
      const change = (id: Snowflake.Snowflake, f: (application: Application) => Application) =>
        Ref.modify(byId, (apps): [Option.Option<Application>, Map<string, Application>] => {
          const found = apps.get(id)
          if (found === undefined) return [Option.none(), apps]
          const next = f(found)
          return [Option.some(next), new Map(apps).set(id, next)]
        })
      return ApplicationsRepo.of({
        insert: (application, limit) =>
          Ref.modify(byId, (apps): [Effect.Effect<void, ApplicationLimitReached>, Map<string, Application>] => {
            let owned = 0
            for (const other of apps.values()) if (other.ownerId === application.ownerId) owned++
            if (owned >= limit) return [Effect.fail(new ApplicationLimitReached()), apps]
            return [Effect.void, new Map(apps).set(application.id, application)]
          }).pipe(Effect.flatten),
        findById: (id) => Effect.map(Ref.get(byId), (apps) => Option.fromNullishOr(apps.get(id))),
        listByOwner: (ownerId) =>
          Effect.map(Ref.get(byId), (apps) =>
            [...apps.values()]
              .filter((application) => application.ownerId === ownerId)
              .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
          ),
        botsHoldingTokens: (digests) =>
          Effect.map(Ref.get(byId), (apps) => {
            const asked = new Set(digests)
            const held = new Map<string, Snowflake.Snowflake>()
            for (const application of apps.values()) {
              const digest = application.botTokenDigest
              if (digest !== null && asked.has(digest)) held.set(digest, application.id)
            }
            return held
          }),
        findByBotToken: (digest) =>
          Effect.map(Ref.get(byId), (apps) => {
            for (const application of apps.values()) {
              if (application.botTokenDigest === digest) return Option.some(application)
            }
            return Option.none()
          }),
        update: (id, changes) =>
          change(id, (application) => ({
            ...application,
            ...(changes.name === undefined ? {} : { name: changes.name }),
            ...(changes.description === undefined ? {} : { description: changes.description }),
            ...(changes.icon === undefined ? {} : { icon: changes.icon }),
            ...(changes.botPublic === undefined ? {} : { botPublic: changes.botPublic }),
            ...(changes.botRequireCodeGrant === undefined ? {} : { botRequireCodeGrant: changes.botRequireCodeGrant }),
            ...(changes.flags === undefined ? {} : { flags: changes.flags }),
            ...(changes.redirectUris === undefined ? {} : { redirectUris: [...changes.redirectUris] })
          })),
        setBotToken: (id, digest) =>
          Effect.map(
            change(id, (application) => ({ ...application, botTokenDigest: digest })),
            Option.isSome
          ),
        setSecret: (id, digest) =>
          Effect.map(
            change(id, (application) => ({ ...application, secretDigest: digest })),
            Option.isSome
          ),
        remove: (id) =>
          Ref.modify(byId, (apps): [boolean, Map<string, Application>] => {
            if (!apps.has(id)) return [false, apps]
            const next = new Map(apps)
            next.delete(id)
            return [true, next]
          })
      })
    })
  )
}
