/**
 * This node's gateway sessions and the fan-out to them. Each session listens on its user's topic
 * and on each guild it is in (in its shard); a dispatch goes to the sessions of the topics its
 * audience names, filtered by their intents. The payload is serialised once per dispatch and
 * written to each socket directly from the one fan-out fiber (a fiber per socket measured half the
 * throughput, gateway-notes §5); a guild message for bots without the MESSAGE_CONTENT intent is a
 * variant (the reply's reference gated on its own), each also serialised once. Topics are reference-counted so a shared DispatchSource subscribes
 * only to what this node needs. A session whose socket dropped stays resumable for the configured
 * window; shutdown asks every session to reconnect (op 7).
 */
import type { Dispatch, Snowflake } from "@veche/platform"
import { Clock, Context, Duration, Effect, Layer, Option, Schedule, Stream } from "effect"
import * as ChannelShifts from "./ChannelShifts.ts"
import { ChannelViews, changesSight, scopeOf } from "./ChannelViews.ts"
import * as CloseCodes from "./CloseCodes.ts"
import { DispatchSource, guildTopic, type Topic, userTopic } from "./DispatchSource.ts"
import * as Frames from "./Frames.ts"
import { GatewayConfig } from "./GatewayConfig.ts"
import * as Intents from "./Intents.ts"
import * as MessageContent from "./MessageContent.ts"
import * as Session from "./Session.ts"

const CHANNEL_EVENT: ReadonlySet<string> = new Set(["CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE"])

export class Sessions extends Context.Service<
  Sessions,
  {
    /** A new session: listens on its user's topic at once (READY's guilds follow with `joinGuild`). */
    readonly open: (session: Session.Session) => Effect.Effect<void>
    readonly joinGuild: (session: Session.Session, guildId: string) => Effect.Effect<void>
    /** Its socket is gone: kept for a resume unless `ends`, then forgotten after the window. */
    /**
     * The session's socket is gone: it ends, or waits for a resume. `from`: the connection that is
     * ending; if the session is attached to another by now (it resumed there), nothing changes.
     */
    readonly detach: (session: Session.Session, ends: boolean, from?: Session.Sink) => Effect.Effect<void>
    /** A session of this node by id. */
    readonly find: (sessionId: string) => Effect.Effect<Option.Option<Session.Session>>
    /** Sends one dispatch to the sessions its audience names (what the fan-out fiber does). */
    readonly deliver: (dispatch: Dispatch.Dispatch) => Effect.Effect<void>
    /** op 7 to every attached session, then closes their sockets (they resume elsewhere). */
    readonly shutdown: Effect.Effect<void>
    /** Sessions on this node (attached or waiting for a resume). */
    readonly size: Effect.Effect<number>
    /**
     * Also hands every dispatch this node receives to `observer`, before delivering it (presence
     * reads settings and guild changes this way). It runs on the fan-out fiber: it must only enqueue.
     */
    readonly observe: (observer: (dispatch: Dispatch.Dispatch) => void) => Effect.Effect<void>
    /**
     * Where a guild joined (GUILD_CREATE to the member) finds the presences it carries to sessions
     * with GUILD_PRESENCES (the presence service, which itself depends on Sessions, registers it).
     */
    readonly presencesOnJoin: (
      source: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<unknown>>
    ) => Effect.Effect<void>
  }
>()("@veche/gateway/Sessions") {
  static readonly layer: Layer.Layer<Sessions, never, DispatchSource | GatewayConfig | ChannelViews> = Layer.effect(
    Sessions,
    Effect.gen(function* () {
      const source = yield* DispatchSource
      const views = yield* ChannelViews
      const config = yield* GatewayConfig
      const sessions = new Map<string, Session.Session>()
      const topics = new Map<Topic, Set<Session.Session>>()
      const observers: Array<(dispatch: Dispatch.Dispatch) => void> = []
      let joinPresences:
        | ((guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<unknown>>)
        | undefined

      const listen = (topic: Topic, session: Session.Session) => {
        const found = topics.get(topic)
        if (found !== undefined) {
          found.add(session)
          return Effect.void
        }
        topics.set(topic, new Set([session]))
        return source.subscribe(topic)
      }
      const stopListening = (topic: Topic, session: Session.Session) => {
        const found = topics.get(topic)
        if (found === undefined || !found.delete(session) || found.size > 0) return Effect.void
        topics.delete(topic)
        if (topic.startsWith("guild:")) views.forget(topic.slice("guild:".length))
        return source.unsubscribe(topic)
      }
      // Guilds a session still starting was told it left (GUILD_DELETE): its IDENTIFY may have read
      // the guild list before the removal, and must not join them after it.
      const leftWhileStarting = new WeakMap<Session.Session, Set<string>>()
      const joinGuild = (session: Session.Session, guildId: string) => {
        if (session.guildIds.has(guildId)) return Effect.void
        if (session.pending !== undefined && leftWhileStarting.get(session)?.has(guildId) === true) return Effect.void
        session.guildIds.add(guildId)
        // what the member sees now, so that a later change of it can be told (CHANNEL_CREATE/DELETE)
        return Effect.andThen(
          listen(guildTopic(guildId), session),
          views.prepare(guildId as Snowflake.Snowflake, [session.userId])
        )
      }
      const leaveGuild = (session: Session.Session, guildId: string) => {
        if (!session.guildIds.delete(guildId)) return Effect.void
        return stopListening(guildTopic(guildId), session)
      }
      const forget = (session: Session.Session) =>
        Effect.gen(function* () {
          if (sessions.get(session.id) !== session) return
          sessions.delete(session.id)
          yield* stopListening(userTopic(session.userId), session)
          for (const guildId of [...session.guildIds]) yield* leaveGuild(session, guildId)
        })

      // The sessions of the topics a dispatch names, each once. One guild's event (the common case)
      // is that guild's own set, not a copy of a thousand sessions per dispatch: the delivery loop
      // never suspends for a guild's event (only the user's GUILD_CREATE/DELETE join or leave topics).
      const none: ReadonlySet<Session.Session> = new Set()
      const targetsOf = (
        userIds: ReadonlyArray<string>,
        guildIds: ReadonlyArray<string>
      ): ReadonlySet<Session.Session> => {
        const [only] = guildIds
        if (userIds.length === 0 && guildIds.length === 1 && only !== undefined)
          return topics.get(guildTopic(only)) ?? none
        const targets = new Set<Session.Session>()
        for (const userId of userIds) for (const session of topics.get(userTopic(userId)) ?? []) targets.add(session)
        for (const guildId of guildIds)
          for (const session of topics.get(guildTopic(guildId)) ?? []) targets.add(session)
        return targets
      }

      const recipients = (targets: ReadonlySet<Session.Session>) => {
        const userIds = new Set<Snowflake.Snowflake>()
        for (const session of targets) userIds.add(session.userId)
        return userIds
      }

      const deliver = Effect.fnUntraced(function* (dispatch: Dispatch.Dispatch) {
        for (const observer of observers) observer(dispatch)
        const guildIds = dispatch.guildIds ?? []
        const toGuild = guildIds.length > 0
        const targets = targetsOf(dispatch.userIds, guildIds)
        if (targets.size === 0) return views.observe(dispatch)
        // a dispatch about one channel goes to those who may see it (one guild per such dispatch)
        const channelGuild = toGuild && guildIds.length === 1 ? guildIds[0] : undefined
        const scope = channelGuild === undefined ? undefined : scopeOf(dispatch.type, dispatch.data)
        if (channelGuild !== undefined && scope !== undefined) yield* views.prepare(channelGuild, recipients(targets))
        // a change of who sees what: compared before and after, for CHANNEL_CREATE/DELETE below
        const changed =
          channelGuild === undefined || !changesSight(dispatch.type)
            ? undefined
            : yield* views.refresh(dispatch, recipients(targets))
        // once for every recipient: only `s` differs between them
        const parts = Frames.dispatchParts(dispatch.type, JSON.stringify(dispatch.data))
        const seen = changed === undefined ? undefined : ChannelShifts.make(dispatch, parts)
        const needed = Intents.required(dispatch.type, toGuild)
        // a guild message without its content, for bots without the intent: also serialised once,
        // when the first such session needs it (DMs to a bot keep their content, as on the platform)
        const gated = toGuild && MessageContent.isGated(dispatch.type)
        const variants = new Map<string, Frames.DispatchText>()
        let joined: Frames.DispatchText | undefined
        for (const session of targets) {
          // a guild joined or left, told to the member alone: the session's guild topics follow
          if (!toGuild && dispatch.type === "GUILD_CREATE") {
            if (session.bot && !Session.inShard(session.shard, dispatch.data.id)) continue
            leftWhileStarting.get(session)?.delete(dispatch.data.id)
            yield* joinGuild(session, dispatch.data.id)
          } else if (!toGuild && dispatch.type === "GUILD_DELETE") {
            if (session.pending !== undefined) {
              const left = leftWhileStarting.get(session) ?? new Set<string>()
              left.add(dispatch.data.id)
              leftWhileStarting.set(session, left)
            }
            yield* leaveGuild(session, dispatch.data.id)
          }
          if (needed !== 0 && (session.intents & needed) === 0) continue
          // a guild joined: with the members shown online, for sessions that may see presences
          if (
            !toGuild &&
            dispatch.type === "GUILD_CREATE" &&
            joinPresences !== undefined &&
            (session.intents & Intents.GUILD_PRESENCES) !== 0
          ) {
            joined ??= Frames.dispatchParts(
              dispatch.type,
              JSON.stringify({ ...dispatch.data, presences: yield* joinPresences(dispatch.data.id, session.userId) })
            )
            Session.deliver(session, joined)
            continue
          }
          // a user's own presence is not told back to them through their guilds (as on the platform)
          if (dispatch.type === "PRESENCE_UPDATE" && dispatch.data.user.id === session.userId) continue
          // a channel event where who sees what was compared: told from before and after (a channel
          // updated into or out of sight arrives as created or deleted); else judged by its payload
          const before =
            changed !== undefined && scope !== undefined && CHANNEL_EVENT.has(dispatch.type)
              ? changed.before(session.userId)
              : undefined
          if (changed !== undefined && seen !== undefined && scope !== undefined && before !== undefined) {
            const own = seen.own(before.has(scope.channelId), changed.after(session.userId).has(scope.channelId))
            if (own !== undefined) Session.deliver(session, own)
            continue
          }
          if (scope !== undefined && channelGuild !== undefined && !views.sees(channelGuild, session.userId, scope))
            continue
          const variant =
            gated && !session.readsContent ? MessageContent.variantFor(dispatch.data, session.userId) : "whole"
          if (variant === "whole") Session.deliver(session, parts)
          else {
            let text = variants.get(variant)
            if (text === undefined) {
              const keepOuter = variant === "outer"
              const keepReference = variant === "reference"
              text = Frames.dispatchParts(
                dispatch.type,
                JSON.stringify(MessageContent.gated(dispatch.data, keepOuter, keepReference))
              )
              variants.set(variant, text)
            }
            Session.deliver(session, text)
          }
        }
        if (changed !== undefined && seen !== undefined)
          for (const session of targets) {
            if ((session.intents & Intents.GUILDS) === 0) continue
            const shift = changed.shifts.get(session.userId)
            if (shift !== undefined) for (const text of seen.frames(shift)) Session.deliver(session, text)
          }
        views.observe(dispatch)
      })

      // The fan-out: one fiber for every dispatch this node receives. A dispatch that cannot be
      // delivered (a defect) is logged and skipped: it must never stop delivery of the next ones.
      yield* source.dispatches.pipe(
        Stream.runForEach((dispatch) =>
          deliver(dispatch).pipe(
            Effect.catchCause((cause) => Effect.logError(`gateway: ${dispatch.type} not delivered`, cause))
          )
        ),
        Effect.forkScoped
      )

      // Dispatches may have been lost (the shared bus's subscription dropped): every session here is
      // told to reconnect (op 7, close 4000) and forgotten, so its RESUME gets op 9 and it identifies
      // afresh with a full state, rather than silently missing events; cached views are dropped too.
      const interrupted = Effect.gen(function* () {
        views.clear()
        for (const session of [...sessions.values()]) {
          const sink = session.sink
          session.sink = undefined
          sink?.send(Frames.RECONNECT)
          sink?.close(CloseCodes.UNKNOWN_ERROR, "Reconnect")
          yield* forget(session)
        }
      })
      if (source.interruptions !== undefined)
        yield* source.interruptions.pipe(
          Stream.runForEach(() =>
            Effect.andThen(Effect.logWarning("gateway: dispatches may have been lost; sessions reconnect"), interrupted)
          ),
          Effect.forkScoped
        )

      // Sessions that were not resumed in time are forgotten.
      const sweep = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        for (const session of [...sessions.values()])
          if (session.detachedAt !== undefined && now - session.detachedAt >= config.resumeWindowMs)
            yield* forget(session)
      })
      yield* sweep.pipe(
        Effect.repeat(Schedule.spaced(Duration.millis(Math.max(1000, config.resumeWindowMs / 6)))),
        Effect.forkScoped
      )

      const shutdown = Effect.map(Clock.currentTimeMillis, (now) => {
        for (const session of sessions.values()) {
          const sink = session.sink
          if (sink === undefined) continue
          session.sink = undefined
          session.detachedAt = now
          sink.send(Frames.RECONNECT)
          sink.close(CloseCodes.UNKNOWN_ERROR, "Reconnect")
        }
      })
      yield* Effect.addFinalizer(() => shutdown)

      return Sessions.of({
        open: (session) =>
          Effect.suspend(() => {
            sessions.set(session.id, session)
            return listen(userTopic(session.userId), session)
          }),
        joinGuild,
        detach: (session, ends, from) =>
          Effect.gen(function* () {
            // taken up by another connection (a RESUME) while the ending one was closing: it is theirs
            if (from !== undefined && session.sink !== undefined && session.sink !== from) return
            session.sink = undefined
            if (ends) return yield* forget(session)
            session.detachedAt = yield* Clock.currentTimeMillis
          }),
        find: (sessionId) => Effect.sync(() => Option.fromUndefinedOr(sessions.get(sessionId))),
        deliver,
        shutdown,
        size: Effect.sync(() => sessions.size),
        observe: (observer) => Effect.sync(() => observers.push(observer)),
        presencesOnJoin: (source) =>
          Effect.sync(() => {
            joinPresences = source
          })
      })
    })
  )
}
