/**
 * Gateway dispatches across nodes over Redis pub/sub: the EventBus the domains publish on and the
 * gateway's DispatchSource, together. A dispatch is published once per topic of its audience
 * (`guild:{id}`, `user:{id}`); each node SUBSCRIBEs, on one dedicated subscriber connection, to the
 * topics its local sessions need (the gateway's Sessions count them) and delivers what arrives. A
 * node subscribed to several topics of one dispatch receives it once per topic: each carries an id,
 * and the node drops the copies (the gateway resolves every recipient from the whole audience).
 *
 * Pub/sub delivers at most once: a node whose subscriber connection drops misses what was published
 * meanwhile (node-redis reconnects and resubscribes). So every time the subscriber connection
 * errs or reconnects, `interruptions` says so, and the gateway sends this node's sessions op 7 and
 * forgets them: they identify afresh (with a full state) instead of silently missing events. The
 * subscriber connection is named `{prefix}sub` (CLIENT LIST shows it).
 */
import { randomUUID } from "node:crypto"
import { DispatchSource } from "@veche/gateway"
import { type Dispatch, EventBus } from "@veche/platform"
import { Context, Effect, Layer, PubSub, Redacted, Schema, Stream } from "effect"
import { createClient } from "redis"

export interface Options {
  readonly url: Redacted.Redacted<string>
  /** Where channel names start (default `veche:gateway:`). */
  readonly prefix?: string
}

export class DispatchBusUnavailable extends Schema.TaggedError<DispatchBusUnavailable>()("DispatchBusUnavailable", {
  message: Schema.String
}) {}

/** What travels on a channel: the dispatch and an id to drop copies by. */
const Envelope = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  data: Schema.Unknown,
  userIds: Schema.Array(Schema.String),
  guildIds: Schema.optionalKey(Schema.Array(Schema.String))
})
const decodeEnvelope = Schema.decodeUnknownOption(Schema.fromJsonString(Envelope))

/** Ids remembered to drop copies (a dispatch's copies arrive together, within far fewer). */
const SEEN_LIMIT = 10_000

const connect = (url: string, name?: string, onLost?: () => void) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = await createClient({ url, ...(name === undefined ? {} : { name }) }).connect()
        // once connected (a first failure must fail the layer, not retry forever): node-redis
        // reports a dropped connection as an error, then reconnects by itself
        client.on("error", () => onLost?.())
        client.on("reconnecting", () => onLost?.())
        return client
      },
      catch: (cause) =>
        new DispatchBusUnavailable({ message: `Redis at REDIS_URL refused the gateway: ${String(cause)}` })
    }),
    (client) => Effect.promise(() => client.close().catch(() => undefined))
  )

export const layer = (
  options: Options
): Layer.Layer<EventBus.EventBus | DispatchSource.DispatchSource, DispatchBusUnavailable> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const prefix = options.prefix ?? "veche:gateway:"
      const received = yield* PubSub.unbounded<Dispatch.Dispatch>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(received))
      const lost = yield* PubSub.unbounded<void>()
      yield* Effect.addFinalizer(() => PubSub.shutdown(lost))
      const publisher = yield* connect(Redacted.value(options.url))
      const subscriber = yield* connect(Redacted.value(options.url), `${prefix}sub`.replace(/\s/g, "_"), () => {
        PubSub.publishUnsafe(lost, undefined)
      })

      const node = randomUUID()
      let published = 0
      const seen = new Set<string>()
      const listener = (message: string) => {
        const envelope = decodeEnvelope(message)
        if (envelope._tag === "None" || seen.has(envelope.value.id)) return
        seen.add(envelope.value.id)
        if (seen.size > SEEN_LIMIT) {
          const oldest = seen.values().next()
          if (oldest.done !== true) seen.delete(oldest.value)
        }
        const { id: _id, ...dispatch } = envelope.value
        // Only this service's nodes publish here, with payloads the domains' schemas made.
        PubSub.publishUnsafe(received, dispatch as unknown as Dispatch.Dispatch)
      }

      const channelOf = (topic: DispatchSource.Topic) => `${prefix}${topic}`
      const warn = (what: string) => (cause: unknown) => Effect.logWarning(`gateway Redis ${what} failed`, cause)

      const bus = EventBus.EventBus.of({
        publish: (dispatch) => {
          const topics = [
            ...dispatch.userIds.map(DispatchSource.userTopic),
            ...(dispatch.guildIds ?? []).map(DispatchSource.guildTopic)
          ]
          if (topics.length === 0) return Effect.void
          const text = JSON.stringify({ id: `${node}:${++published}`, ...dispatch })
          return Effect.tryPromise(() =>
            Promise.all(topics.map((topic) => publisher.publish(channelOf(topic), text)))
          ).pipe(Effect.asVoid, Effect.catch(warn("PUBLISH")))
        },
        events: Stream.fromPubSub(received)
      })
      const source = DispatchSource.DispatchSource.of({
        dispatches: Stream.fromPubSub(received),
        subscribe: (topic) =>
          Effect.tryPromise(() => subscriber.subscribe(channelOf(topic), listener)).pipe(
            Effect.catch(warn("SUBSCRIBE"))
          ),
        unsubscribe: (topic) =>
          Effect.tryPromise(() => subscriber.unsubscribe(channelOf(topic), listener)).pipe(
            Effect.catch(warn("UNSUBSCRIBE"))
          ),
        interruptions: Stream.fromPubSub(lost)
      })
      return Context.make(EventBus.EventBus, bus).pipe(Context.add(DispatchSource.DispatchSource, source))
    })
  )
