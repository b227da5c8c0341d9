/**
 * The port on which domains announce what happened (USER_UPDATE, USER_SETTINGS_UPDATE,
 * PRESENCE_UPDATE, …) for the gateway to deliver. An event names its audience by user id; who those
 * users are (friends, members of a server) is the publisher's business. Publishing never waits for
 * delivery. The memory adapter serves one process; several nodes need a shared adapter (Redis), which
 * the gateway work adds.
 */
import { Context, Effect, Layer, PubSub, Stream } from "effect"
import type { Snowflake } from "./Snowflake.ts"

export interface Event {
  /** The mirrored platform's dispatch name, e.g. `USER_SETTINGS_UPDATE`. */
  readonly type: string
  /** The users whose sessions receive it. */
  readonly userIds: ReadonlyArray<Snowflake>
  /** Servers whose members receive it (the gateway resolves the members). */
  readonly guildIds?: ReadonlyArray<Snowflake> | undefined
  readonly data: unknown
}

export class EventBus extends Context.Service<
  EventBus,
  {
    readonly publish: (event: Event) => Effect.Effect<void>
    /** Every event published from now on; each run of the stream is a fresh subscription. */
    readonly events: Stream.Stream<Event>
  }
>()("@veche/platform/EventBus") {
  static readonly layerMemory: Layer.Layer<EventBus> = Layer.effect(
    EventBus,
    Effect.gen(function* () {
      const pubsub = yield* PubSub.unbounded<Event>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
      return EventBus.of({
        publish: (event) => Effect.asVoid(PubSub.publish(pubsub, event)),
        events: Stream.fromPubSub(pubsub)
      })
    })
  )
}
