/**
 * Where this node's gateway gets the dispatches it delivers, and how it says which audiences it
 * needs. Topics are `guild:{id}` and `user:{id}`; the sessions ask for a topic when the first local
 * session needs it and give it back after the last (reference-counted by `Sessions`), so a shared
 * adapter can subscribe per topic (Redis pub/sub: a channel per guild and per user, one subscriber
 * connection per node). `layerMemory` is one process: every dispatch on the EventBus, topics ignored.
 */
import { type Dispatch, EventBus } from "@veche/platform"
import { Context, Effect, Layer, type Stream } from "effect"

export type Topic = `guild:${string}` | `user:${string}`

export const guildTopic = (guildId: string): Topic => `guild:${guildId}`
export const userTopic = (userId: string): Topic => `user:${userId}`

export class DispatchSource extends Context.Service<
  DispatchSource,
  {
    /** Dispatches for this node (at least those of the topics it asked for); one run, one subscription. */
    readonly dispatches: Stream.Stream<Dispatch.Dispatch>
    /** The first local session needs `topic`. */
    readonly subscribe: (topic: Topic) => Effect.Effect<void>
    /** The last local session that needed `topic` is gone. */
    readonly unsubscribe: (topic: Topic) => Effect.Effect<void>
    /**
     * One element each time dispatches may have been lost (a shared adapter's subscription dropped):
     * the sessions then reconnect and identify afresh instead of silently missing events. Absent: never.
     */
    readonly interruptions?: Stream.Stream<void> | undefined
  }
>()("@veche/gateway/DispatchSource") {
  static readonly layerMemory: Layer.Layer<DispatchSource, never, EventBus.EventBus> = Layer.effect(
    DispatchSource,
    Effect.map(EventBus.EventBus, (bus) =>
      DispatchSource.of({ dispatches: bus.events, subscribe: () => Effect.void, unsubscribe: () => Effect.void })
    )
  )
}
