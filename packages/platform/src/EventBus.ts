/**
 * The port on which domains announce what happened (USER_UPDATE, USER_SETTINGS_UPDATE,
 * PRESENCE_UPDATE, …) for the gateway to deliver. It carries `Dispatch.Dispatch`, the typed union the
 * domains declare in their `<Domain>Dispatches.ts` (see Dispatch.ts for why it is assembled by
 * declaration merging); each names its audience by user and guild id. Publishing never waits for
 * delivery. The memory adapter serves one process; several nodes need a shared adapter (Redis), which
 * the gateway work adds.
 */
import { Context, Effect, Layer, PubSub, Stream } from "effect"
import type { Dispatch } from "./Dispatch.ts"

export class EventBus extends Context.Service<
  EventBus,
  {
    readonly publish: (event: Dispatch) => Effect.Effect<void>
    /** Every dispatch published from now on; each run of the stream is a fresh subscription. */
    readonly events: Stream.Stream<Dispatch>
  }
>()("@veche/platform/EventBus") {
  static readonly layerMemory: Layer.Layer<EventBus> = Layer.effect(
    EventBus,
    Effect.gen(function* () {
      const pubsub = yield* PubSub.unbounded<Dispatch>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(pubsub))
      return EventBus.of({
        publish: (event) => Effect.asVoid(PubSub.publish(pubsub, event)),
        events: Stream.fromPubSub(pubsub)
      })
    })
  )
}
