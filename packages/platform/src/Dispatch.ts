/**
 * The typed dispatch the EventBus carries: the mirrored platform's dispatch name (`type`), its
 * payload (`data`, exactly the wire object) and who receives it (`userIds`, `guildIds`).
 *
 * Platform sits below the domains, so it cannot name their payloads. Each domain declares its own
 * dispatches in `<Domain>Dispatches.ts`: a record of payload schemas (what the gateway encodes) and
 * the union built from it with `FromSchemas`, which it adds to `Registry` under its own key by
 * declaration merging:
 *
 *     declare module "@veche/platform" {
 *       namespace Dispatch { interface Registry { readonly guilds: GuildDispatch } }
 *     }
 *
 * `Dispatch` is then the union of every registered domain's dispatches, in any program that imports
 * those domains (the gateway, rest, hosts), and `never` in one that imports none (nothing to carry).
 * A key per domain rather than per dispatch name lets two domains publish the same name with
 * payloads of their own (GUILD_MEMBER_UPDATE: the whole member from guilds, only the user from a
 * profile edit); narrowing on `type` gives the union of both. We chose this over a generic EventBus
 * because a Context.Service key names one service type: a bus generic in its event would need a
 * key per instantiation, and every host would have to agree on the type argument.
 */
import type { Schema } from "effect"
import type { Snowflake } from "./Snowflake.ts"

/** Who receives a dispatch; who those users are (friends, members of a server) is the publisher's business. */
export interface Audience {
  /** The users whose sessions receive it. */
  readonly userIds: ReadonlyArray<Snowflake>
  /** Servers whose members receive it (the gateway resolves the members). */
  readonly guildIds?: ReadonlyArray<Snowflake> | undefined
}

/** One dispatch named `T` with payload `D`. */
export interface Of<T extends string, D> extends Audience {
  /** The mirrored platform's dispatch name, e.g. `USER_SETTINGS_UPDATE`. */
  readonly type: T
  readonly data: D
}

/** A dispatch before its audience is chosen (distributes over a union, keeping `type` and `data` paired). */
export type WithoutAudience<D> = D extends Audience ? Omit<D, keyof Audience> : never

/** A domain's payload schemas, by dispatch name. */
export type Schemas = { readonly [T in string]: Schema.Top }

/** The union of dispatches a record of payload schemas describes. */
export type FromSchemas<S extends Schemas> = { readonly [T in keyof S & string]: Of<T, S[T]["Type"]> }[keyof S & string]

/** Each domain adds its union under its own key (see the header); empty here on purpose. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the domains
export interface Registry {}

/** Every dispatch the registered domains publish. */
export type Dispatch = Registry[keyof Registry]
