/**
 * The port through which account deletion and data export (`@veche/privacy`, above every domain)
 * reach what each domain keeps about a user. Each domain answers with its part — its files of the
 * export archive, and what deletion must erase — and registers it in the host's one registry when
 * its layer is built, so a new domain adds its part without touching privacy or the other domains
 * (as `Memberships` is answered by guilds).
 *
 * Parts are ordered by `level`, the domain's place in the dependency picture (users 10, auth 20,
 * guilds 30, later domains above): erasure runs from the top down, so what refers to an account
 * goes before the account itself; the export runs from the bottom up, so the archive opens with
 * the user's identity. Registration order (layer build order) never matters.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Ref } from "effect"

/** Levels of the domains that answer today; a new domain takes the next free ten above its imports. */
export const USERS = 10
export const AUTH = 20
export const GUILDS = 30

/** What a part puts in the archive: one JSON file, or its share of one. */
export interface Section {
  /** The file inside the archive, e.g. `account.json`. */
  readonly file: string
  /** Its line in the archive's README; the first part to describe a file describes it. */
  readonly about?: string | undefined
  /**
   * The JSON value. Parts sharing a file (`account.json`: the user's name from users, the phone and
   * e-mail from auth) each give an object, merged field by field in export order.
   */
  readonly content: unknown
}

/** One domain's answer. Both methods may run again after a crash or a failure, so both must be idempotent. */
export interface Part {
  /** The domain, for logs (`auth`, `users`, `guilds`). */
  readonly name: string
  readonly level: number
  /** The domain's sections of the user's archive; no secret ever (hashes, TOTP secrets, tokens). */
  readonly export: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Section>>
  /** Erases what deletion must erase; running it twice does no harm. */
  readonly erase: (userId: Snowflake.Snowflake) => Effect.Effect<void>
}

export class PersonalData extends Context.Service<
  PersonalData,
  {
    /** Adds a domain's part (its layer does, when built); a part of the same name replaces the older. */
    readonly register: (part: Part) => Effect.Effect<void>
    /** Every registered part, by level, lowest first (the export's order; erasure runs it backwards). */
    readonly parts: Effect.Effect<ReadonlyArray<Part>>
  }
>()("@veche/users/PersonalData") {
  /** The registry: one per host, below every domain's layer. */
  static readonly layer: Layer.Layer<PersonalData> = Layer.effect(
    PersonalData,
    Effect.map(Ref.make<ReadonlyArray<Part>>([]), (all) =>
      PersonalData.of({
        register: (part) =>
          Ref.update(all, (parts) =>
            [...parts.filter((other) => other.name !== part.name), part].sort((a, b) => a.level - b.level)
          ),
        parts: Ref.get(all)
      })
    )
  )
}

/** A domain's part as a layer: builds it and registers it in the host's registry. */
export const register = <E, R>(part: Effect.Effect<Part, E, R>): Layer.Layer<never, E, PersonalData | R> =>
  Layer.effectDiscard(
    Effect.flatMap(Effect.zip(Effect.service(PersonalData), part), ([registry, made]) => registry.register(made))
  )
