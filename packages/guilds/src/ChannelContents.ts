/**
 * What other domains keep in a guild's channels (messages), removed when the channel is: a
 * registry each such domain (through the host's composition) adds its part to, so deleting a
 * channel or dissolving a guild takes their contents along without this domain knowing them. The
 * parts run after the channel is deleted (their contents are already unreachable then: every route
 * checks the channel first), and each must be idempotent.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Ref } from "effect"

export interface Part {
  /** The domain, for logs. */
  readonly name: string
  readonly removeChannel: (channelId: Snowflake.Snowflake) => Effect.Effect<unknown>
}

export class ChannelContents extends Context.Service<
  ChannelContents,
  {
    /** Adds a part; one of the same name replaces the older. */
    readonly register: (part: Part) => Effect.Effect<void>
    /** Every part removes what it kept in these channels (deleted already). */
    readonly channelsRemoved: (channelIds: ReadonlyArray<Snowflake.Snowflake>) => Effect.Effect<void>
  }
>()("@veche/guilds/ChannelContents") {
  /** The registry: one per host, below the guilds domain. */
  static readonly layer: Layer.Layer<ChannelContents> = Layer.effect(
    ChannelContents,
    Effect.map(Ref.make<ReadonlyArray<Part>>([]), (all) =>
      ChannelContents.of({
        register: (part) => Ref.update(all, (parts) => [...parts.filter((other) => other.name !== part.name), part]),
        channelsRemoved: (channelIds) =>
          Effect.flatMap(Ref.get(all), (parts) =>
            Effect.forEach(
              parts,
              (part) =>
                Effect.forEach(channelIds, (channelId) => part.removeChannel(channelId), { discard: true }).pipe(
                  Effect.catchCause((cause) =>
                    Effect.logError(`guilds: ${part.name} could not remove a deleted channel's contents`, cause)
                  )
                ),
              { discard: true }
            )
          )
      })
    )
  )
}

/** A part as a layer: builds it and registers it in the host's registry. */
export const register = <E, R>(part: Effect.Effect<Part, E, R>): Layer.Layer<never, E, ChannelContents | R> =>
  Layer.effectDiscard(
    Effect.flatMap(Effect.zip(Effect.service(ChannelContents), part), ([registry, made]) => registry.register(made))
  )
