/**
 * One WebSocket connection to the gateway, from HELLO to close: the SessionMachine's actions carried
 * out over the socket, IDENTIFY (token, intents, shard, identify budget, READY and one GUILD_CREATE
 * per guild) and RESUME (replay of what was missed, then RESUMED, or op 9 `d: false`). Time comes
 * from the Clock: the heartbeat deadline moves with a test clock.
 */
import { GuildSnapshots } from "@veche/guilds"
import { CurrentUser, Memberships, Profiles } from "@veche/users"
import { type Cause, Clock, Deferred, Duration, Effect, Exit, Latch, Option, Redacted, Scope, Semaphore } from "effect"
import { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import * as Socket from "effect/socket/Socket"
import * as CloseCodes from "./CloseCodes.ts"
import * as CredentialWatch from "./CredentialWatch.ts"
import * as Frames from "./Frames.ts"
import { GatewayConfig } from "./GatewayConfig.ts"
import { GatewayIdentity, type Identity, sameCredential } from "./GatewayIdentity.ts"
import { IdentifyLimits } from "./IdentifyLimits.ts"
import * as Intents from "./Intents.ts"
import * as MemberRequests from "./MemberRequests.ts"
import * as MessageContent from "./MessageContent.ts"
import { Presence } from "./Presence.ts"
import * as Session from "./Session.ts"
import * as SessionMachine from "./SessionMachine.ts"
import { Sessions } from "./Sessions.ts"
import * as WireFrames from "./WireFrames.ts"

/** The query a client connects with (`?v=10&encoding=json`); absent values take the defaults. */
export interface Params {
  readonly version: string | undefined
  readonly encoding: string | undefined
  /** Bytes written and not yet sent to the client (the host's socket), when the host can tell. */
  readonly bufferedAmount?: (() => number) | undefined
  /**
   * The host's own socket, handed over once open, when the host can (Node: the `ws` WebSocket).
   * The connection then keeps no fiber: frames arrive by callback, and every write (the fan-out's
   * included) is a synchronous send, where a write through the Socket's writer costs a fiber run.
   */
  readonly takeOver?: (() => HostSocket | undefined) | undefined
}

/** An open WebSocket as its host hands it over (see `Params.takeOver`). */
export interface HostSocket {
  /** One text frame, written now (synchronously, in order). */
  readonly send: (text: string) => void
  /**
   * One whole frame's bytes (header and payload, see WireFrames), written now as they are, if the
   * socket can take them in order with the frames `send` wrote; false: nothing written (the socket is
   * closing, or the host holds frames of its own back), and the caller sends the text instead.
   * Absent: the host frames every write itself.
   */
  readonly sendFrame?: ((frame: Uint8Array) => boolean) | undefined
  readonly close: (code: number, reason: string) => void
  /** From now on: each frame from the client as text, then its close (the code it sent, or 1005/1006). */
  readonly listen: (onText: (text: string) => void, onClose: (code: number) => void) => void
  /**
   * Runs `closeWrapper`, which closes the host's Socket wrapper and all it holds (its reader, the
   * upgrade request's context), without closing the WebSocket itself: from then on only this
   * handle owns it.
   */
  readonly release: (closeWrapper: () => void) => void
}

/** Gateway versions served: the platform's current two (the same protocol here). */
export const VERSIONS: ReadonlySet<string> = new Set(["9", "10"])

/** Guilds one shard may carry before the platform asks for more shards (close 4011). */
export const MAX_GUILDS_PER_SHARD = 2500
export const MAX_SHARDS = 4096

/** How often heartbeat deadlines are checked (each connection's, in one sweep). */
export const HEARTBEAT_SWEEP_MS = 1000

/** The connection's close, once known: ours (code) or the client's. */
const clientCloseCode = (error: Socket.SocketError): number | undefined =>
  error.reason._tag === "SocketCloseError" ? error.reason.code : undefined

export const make = Effect.gen(function* () {
  const config = yield* GatewayConfig
  const sessions = yield* Sessions
  const identities = yield* GatewayIdentity
  const limits = yield* IdentifyLimits
  const currentUser = yield* CurrentUser.CurrentUser
  const memberships = yield* Memberships.Memberships
  const snapshots = yield* GuildSnapshots.GuildSnapshots
  const random = yield* SecureRandom.SecureRandom
  const presence = yield* Presence
  const memberRequests = yield* MemberRequests.make
  const credentials = yield* CredentialWatch.make
  // Connections outlive the upgrade request that opened them: each is served by a fiber of the
  // gateway's own scope (interrupted when the node stops), not by the request's fiber, whose
  // middleware and handler frames would otherwise be kept for every idle connection.
  const connectionsScope = yield* Effect.scope
  // What a handed-over connection's steps run with: the gateway's own services and clock, one
  // context for all (the upgrade request's, per connection, would be kept alive by each).
  const runStep = Effect.runForkWith(yield* Effect.context<never>())
  // Once the node stops, a socket's late close only closes it (the sessions and presence are gone).
  let stopped = false
  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      stopped = true
    })
  )

  // Heartbeat deadlines: one shared sweep over every connection instead of a sleeping fiber each.
  // A check runs at most `HEARTBEAT_SWEEP_MS` (or a quarter interval, if shorter) after its moment.
  // With no connection the sweep waits for one (a test clock moved 60 days would otherwise wake it
  // five million times).
  const heartbeatChecks = new Set<(now: number) => Effect.Effect<void>>()
  const someWatched = yield* Latch.make(false)
  const sweepMs = Math.max(1, Math.min(HEARTBEAT_SWEEP_MS, Math.floor(config.heartbeatIntervalMs / 4)))
  yield* Effect.gen(function* () {
    yield* someWatched.await
    yield* Effect.sleep(Duration.millis(sweepMs))
    const now = yield* Clock.currentTimeMillis
    for (const check of [...heartbeatChecks]) yield* check(now)
    if (heartbeatChecks.size === 0) someWatched.closeUnsafe()
  }).pipe(Effect.forever, Effect.forkScoped)

  // Every open connection, identified or not: shutdown asks each to reconnect and closes it.
  const connections = new Set<Session.Sink>()
  const closeAll = Effect.sync(() => {
    for (const sink of connections) {
      sink.send(Frames.RECONNECT)
      sink.close(CloseCodes.UNKNOWN_ERROR, "Reconnect")
    }
  })

  /**
   * Serves one connection in a fiber of the gateway's scope; done once the socket is open (or failed
   * to open), so the upgrade request ends there and its fiber is freed.
   */
  const connect = (socket: Socket.Socket, params: Params): Effect.Effect<void> =>
    Effect.gen(function* () {
      const opened = yield* Deferred.make<void>()
      yield* serve(socket, params, opened).pipe(
        Effect.ensuring(Deferred.succeed(opened, undefined)),
        Effect.forkIn(connectionsScope)
      )
      yield* Deferred.await(opened)
    })

  const serve = (socketGiven: Socket.Socket, params: Params, opened: Deferred.Deferred<void>): Effect.Effect<void> => {
    // Held so that a handed-over connection can let go of the Socket (and of what its closures
    // keep: the upgrade's contexts, a few KB a connection); a parameter the closures below named
    // would be kept by each of them for as long as the connection lives.
    const io: {
      socket: Socket.Socket | undefined
      pull: Effect.Effect<ReadonlyArray<string>, Socket.SocketError> | undefined
      writer: Socket.Writer | undefined
    } = { socket: socketGiven, pull: undefined, writer: undefined }
    return Effect.gen(function* () {
      // The connection's scope holds the socket (closing it closes the socket): closed when the
      // connection ends, which is not when this fiber does if the host hands its socket over.
      const socketScope = yield* Scope.make()
      const closeSocket = Scope.close(socketScope, Exit.void)
      yield* Effect.gen(function* () {
        // The reader first: the socket's writes wait until it is open.
        const socket = io.socket
        if (socket === undefined) return
        io.pull = yield* Socket.readerString(socket)
        io.writer = yield* socket.writer
        yield* Deferred.succeed(opened, undefined)
        const host = params.takeOver?.()
        // Synchronous writes (ws sends at once): the fan-out writes in order, without a fiber per socket.
        // A client that stops reading: past the limit its connection is closed (4000, resumable)
        // and nothing more is written to it (its session keeps what it missed for the resume).
        // Not while READY and its guilds or a resume's replay go out: those are one burst, bounded
        // by the guilds and the replay buffer, that a reading client takes in stride.
        let overflowed = false
        let bursting = false
        const buffered = params.bufferedAmount
        const checkBuffered = () => {
          if (!bursting && buffered !== undefined && buffered() > config.maxBufferedBytes) {
            overflowed = true
            sink.close(CloseCodes.UNKNOWN_ERROR, "Reconnect")
          }
        }
        const sendFrame = host?.sendFrame
        const sink: Session.Sink = {
          send: (text) => {
            if (overflowed) return
            if (host !== undefined) host.send(text)
            else if (io.writer !== undefined) Effect.runSyncExit(io.writer.write(text))
            checkBuffered()
          },
          // a fan-out's write: the frame built once for every session numbering the dispatch alike
          dispatch:
            sendFrame === undefined
              ? undefined
              : (parts, seq) => {
                  if (overflowed) return
                  if (!sendFrame(WireFrames.dispatchFrame(parts, seq))) host?.send(Frames.dispatchText(parts, seq))
                  checkBuffered()
                },
          close: (code, reason) => {
            if (host !== undefined) host.close(code, reason)
            else if (io.writer !== undefined) Effect.runSyncExit(io.writer.write(new Socket.CloseEvent(code, reason)))
          }
        }
        const closeNow = (code: CloseCodes.CloseCode) => sink.close(code, CloseCodes.REASONS[code])
        connections.add(sink)

        let [state, hello] = SessionMachine.start(yield* Clock.currentTimeMillis, config.heartbeatIntervalMs)
        let session: Session.Session | undefined
        /** A session opened by an IDENTIFY that has not sent READY and its guilds yet. */
        let starting: Session.Session | undefined
        let closedWith: CloseCodes.CloseCode | undefined
        let checkHeartbeat: ((now: number) => Effect.Effect<void>) | undefined
        /** What the session rests on (see CredentialWatch), while watched; and how to stop watching it. */
        let watched: CredentialWatch.Watched | undefined
        let unwatch: (() => void) | undefined
        let ended = false
        const open = () => state.phase !== "Closed" && !ended

        // The connection is over (the client closed, or we did): its session is kept for a resume or
        // ends, and the socket is closed.
        const end = (clientCode: number | undefined): Effect.Effect<void> =>
          Effect.suspend(() => {
            if (ended) return Effect.void
            ended = true
            connections.delete(sink)
            unwatch?.()
            watched = undefined
            if (checkHeartbeat !== undefined) heartbeatChecks.delete(checkHeartbeat)
            const unstarted = starting
            starting = undefined
            if (!stopped && unstarted !== undefined)
              // never READY: nothing to resume (a resume of a session still starting would wait forever)
              return presence
                .detached(unstarted)
                .pipe(Effect.andThen(sessions.detach(unstarted, true)), Effect.ensuring(closeSocket))
            const held = session
            if (stopped || held === undefined || held.sink !== sink) return closeSocket
            const ends = overflowed
              ? false
              : closedWith !== undefined
                ? CloseCodes.ENDS_SESSION.has(closedWith)
                : clientCode === 1000 || clientCode === 1001
            return presence
              .detached(held)
              .pipe(Effect.andThen(sessions.detach(held, ends, sink)), Effect.ensuring(closeSocket))
          })

        /** The session rests on what `identity`'s token proved, from now on, instead of what it did. */
        const restOn = (identity: Identity) => {
          if (ended) return
          unwatch?.()
          const entry: CredentialWatch.Watched = {
            userId: identity.userId,
            credential: identity.credential,
            revoked: () => ordered(closeRevoked(entry))
          }
          watched = entry
          unwatch = credentials.watch(entry)
        }

        if (params.version !== undefined && !VERSIONS.has(params.version)) {
          closeNow(CloseCodes.INVALID_API_VERSION)
          return yield* end(undefined)
        }
        // Only JSON is spoken here; `compress` is ignored (text frames only).
        if (params.encoding !== undefined && params.encoding !== "json") {
          closeNow(CloseCodes.DECODE_ERROR)
          return yield* end(undefined)
        }
        const version = params.version === undefined ? 10 : Number(params.version)

        // A function that builds its generator per call, not `Effect.fnUntraced(function* …)`: this
        // closure lives as long as the connection, and a generator function once called keeps its
        // own prototype object and hidden classes (≈350 bytes a connection, heap snapshots).
        const identify = (data: Frames.IdentifyData): Effect.Effect<SessionMachine.Step> =>
          Effect.gen(function* () {
            const found = yield* identities.identify(Redacted.make(data.token))
            if (Option.isNone(found)) return SessionMachine.closeWith(state, CloseCodes.AUTHENTICATION_FAILED)
            const identity = found.value
            const bot = identity.kind === "bot"
            const intents = data.intents ?? (bot ? undefined : Intents.USER_DEFAULT)
            if (intents === undefined) return SessionMachine.closeWith(state, CloseCodes.INVALID_INTENTS)
            const checked = Intents.check(intents, bot, identity.applicationFlags)
            if (checked._tag === "Invalid") return SessionMachine.closeWith(state, CloseCodes.INVALID_INTENTS)
            if (checked._tag === "Disallowed") return SessionMachine.closeWith(state, CloseCodes.DISALLOWED_INTENTS)
            const shard = data.shard ?? [0, 1]
            if (shard[1] < 1 || shard[1] > MAX_SHARDS || shard[0] < 0 || shard[0] >= shard[1])
              return SessionMachine.closeWith(state, CloseCodes.INVALID_SHARD)
            // a bot's guild count, before its identify budget is spent (the list itself is read again
            // once its session listens, below)
            if (bot && (yield* memberships.guildsOf(identity.userId)).length > MAX_GUILDS_PER_SHARD * shard[1])
              return SessionMachine.closeWith(state, CloseCodes.SHARDING_REQUIRED)
            const outcome = bot
              ? yield* limits.start(identity.userId, shard[0])
              : yield* limits.startUser(identity.userId)
            // a user's day spent: closed (4008); retrying at once would not help
            if (outcome === "DailyLimitReached" && !bot) return SessionMachine.closeWith(state, CloseCodes.RATE_LIMITED)
            // The platform's answer to an identify past the budget: op 9, identify again later.
            if (outcome !== "Started")
              return [
                SessionMachine.retryIdentify(state),
                [{ _tag: "Send", text: Frames.invalidSession(false) }]
              ] as const
            const opened = Session.make({
              id: Hex.encode(yield* random.randomBytes(16)),
              userId: identity.userId,
              bot,
              intents,
              readsContent: MessageContent.readsContent(bot, intents, identity.applicationFlags),
              shard,
              largeThreshold: data.large_threshold ?? 50,
              replayLimit: config.replayLimit,
              sink,
              credential: identity.credential
            })
            // Steps take turns, so the connection cannot end while this one waits; should it all the
            // same (a step that failed, the node stopping), no session is opened for a dead socket.
            if (ended) return [state, []] as const
            // Listening before READY is built, and before the user and the guild list are read: what
            // happens meanwhile follows READY and its guilds, and a guild left or joined meanwhile
            // (GUILD_DELETE/CREATE to the user) is not joined, or is, whichever side of the read it fell.
            yield* sessions.open(opened)
            // Watched from here: a revocation while READY and the guilds are built closes it after them.
            restOn(identity)
            // until READY and its guilds are out, an end (this step failing) forgets the session
            starting = opened
            // the user, their profile and guilds, read once for READY, presence and each GUILD_CREATE
            const read = yield* Effect.option(currentUser.read(identity.userId, bot))
            if (Option.isNone(read)) {
              // the account is gone: no session
              starting = undefined
              yield* sessions.detach(opened, true)
              return SessionMachine.closeWith(state, CloseCodes.AUTHENTICATION_FAILED)
            }
            const account = read.value
            const listed = account.guildIds
            for (const guildId of listed)
              if (!bot || Session.inShard(shard, guildId)) yield* sessions.joinGuild(opened, guildId)
            // the listed guilds still joined (not left meanwhile), in the list's order
            const mine = listed.filter((guildId) => opened.guildIds.has(guildId))
            const settings = bot ? undefined : Profiles.settingsView(account.profile)
            // online (or as IDENTIFY's presence asks) before READY, which carries the friends' presences
            yield* presence.connected(opened, data.presence, { guildIds: listed, settings })
            const ready = {
              v: version,
              user: account.view,
              guilds: mine.map((id) => ({ id, unavailable: true })),
              session_id: opened.id,
              resume_gateway_url: config.resumeGatewayUrl,
              session_type: "normal",
              private_channels: [],
              presences: bot ? [] : yield* presence.ofFriends(identity.userId),
              relationships: [],
              guild_join_requests: [],
              geo_ordered_rtc_regions: [],
              auth: {},
              ...(data.shard === undefined ? {} : { shard }),
              ...(bot ? { application: { id: identity.userId, flags: identity.applicationFlags } } : {}),
              ...(settings === undefined ? {} : { user_settings: settings })
            }
            bursting = true
            Session.emitWithoutReplay(opened, Frames.dispatchParts("READY", JSON.stringify(ready)))
            if ((intents & Intents.GUILDS) !== 0) {
              const members = (intents & Intents.GUILD_MEMBERS) !== 0 ? "all" : "self"
              for (const guildId of mine) {
                const guild = yield* snapshots.guildCreate(guildId, identity.userId, {
                  members,
                  largeThreshold: opened.largeThreshold,
                  // a bot's user is read apart (its bot flag is the users row's, not the account's)
                  recipient: bot ? undefined : account
                })
                if (Option.isNone(guild)) continue
                // the members shown online, to sessions with the (for bots privileged) presence intent
                const shown =
                  (intents & Intents.GUILD_PRESENCES) === 0
                    ? guild.value
                    : { ...guild.value, presences: yield* presence.inGuild(guildId) }
                Session.emitWithoutReplay(opened, Frames.dispatchParts("GUILD_CREATE", JSON.stringify(shown)))
              }
            }
            Session.started(opened)
            bursting = false
            starting = undefined
            // ended meanwhile: the end forgot the session
            if (ended) return [state, []] as const
            session = opened
            return [SessionMachine.ready(state), []] as const
          })

        const resume = (data: Frames.ResumeData): Effect.Effect<SessionMachine.Step> =>
          Effect.gen(function* () {
            const found = yield* identities.identify(Redacted.make(data.token))
            if (Option.isNone(found)) return SessionMachine.closeWith(state, CloseCodes.AUTHENTICATION_FAILED)
            const invalid = [
              SessionMachine.retryIdentify(state),
              [{ _tag: "Send", text: Frames.invalidSession(false) }]
            ] as const
            const held = yield* sessions.find(data.session_id)
            // the same login session (bot token) only: not another credential of the same account, so
            // a session whose own was revoked while detached cannot be taken up
            if (Option.isNone(held) || !sameCredential(held.value.credential, found.value.credential)) return invalid
            const resumed = held.value
            // still sending its READY elsewhere (or never will): not resumable
            if (resumed.pending !== undefined) return invalid
            // a number the session never sent: the platform's 4007 (identify afresh); one sent but
            // no longer kept is op 9, below
            const seen = data.seq ?? 0
            if (seen > resumed.seq || seen < 0) return SessionMachine.closeWith(state, CloseCodes.INVALID_SEQ)
            const missed = Session.missedAfter(resumed, data.seq)
            if (missed === undefined) return invalid
            // not attached to a socket that is gone (see IDENTIFY)
            if (ended) return [state, []] as const
            // A socket still attached (a zombie connection) gives the session up to this one.
            const previous = resumed.sink
            resumed.sink = sink
            resumed.detachedAt = undefined
            previous?.close(CloseCodes.SESSION_TIMED_OUT, "Resumed elsewhere")
            session = resumed
            restOn(found.value)
            yield* presence.resumed(resumed)
            bursting = true
            for (const text of missed) sink.send(text)
            Session.emit(resumed, Frames.RESUMED)
            bursting = false
            return [SessionMachine.ready(state), []] as const
          })

        const apply = (step: SessionMachine.Step): Effect.Effect<void> =>
          Effect.gen(function* () {
            state = step[0]
            for (const action of step[1]) {
              switch (action._tag) {
                case "Send":
                  sink.send(action.text)
                  break
                case "Close":
                  closedWith = action.code
                  closeNow(action.code)
                  break
                case "Identify":
                  yield* apply(yield* identify(action.data))
                  break
                case "Resume":
                  yield* apply(yield* resume(action.data))
                  break
                case "RequestGuildMembers":
                  if (session !== undefined) yield* memberRequests.answer(session, action.data)
                  break
                case "PresenceUpdate":
                  if (session !== undefined) yield* presence.update(session, action.data)
                  break
              }
            }
          })

        yield* apply([state, hello])

        // After each step: a connection we closed is over at once (not when the client answers).
        const endIfClosed = Effect.suspend(() => (state.phase === "Closed" ? end(undefined) : Effect.void))
        // Runs a step after the connection's others (set below for the host's socket or our fiber).
        let ordered: (step: Effect.Effect<void>) => void = () => {}
        // The session's credential stopped holding (revoked, its account blocked, a bot's token reset):
        // closed as an IDENTIFY with it would be (4004, the session ended). Queued after the
        // connection's other steps, so an IDENTIFY under way finishes first.
        const closeRevoked = (entry: CredentialWatch.Watched) =>
          Effect.suspend(() =>
            !open() || watched !== entry
              ? Effect.void
              : Effect.andThen(apply(SessionMachine.closeWith(state, CloseCodes.AUTHENTICATION_FAILED)), endIfClosed)
          )
        // Heartbeat deadline (the shared sweep): asks once, then closes with 4009. The sweep only
        // queues the step: run on the sweep's fiber it would close the connection in the middle of
        // an IDENTIFY or a RESUME suspended on the database, which then went on for a dead socket.
        let checkQueued = false
        const tickNow = Effect.suspend(() => {
          checkQueued = false
          if (!open()) return Effect.void
          return Effect.flatMap(Clock.currentTimeMillis, (now) =>
            now < SessionMachine.nextCheckAt(state)
              ? Effect.void
              : Effect.andThen(apply(SessionMachine.tick(state, now)), endIfClosed)
          )
        })
        const check = (now: number) =>
          Effect.sync(() => {
            if (checkQueued || now < SessionMachine.nextCheckAt(state)) return
            checkQueued = true
            ordered(tickNow)
          })
        checkHeartbeat = check
        heartbeatChecks.add(check)
        someWatched.openUnsafe()
        const receive = (text: string): Effect.Effect<void> =>
          Effect.suspend(() =>
            open()
              ? Effect.flatMap(Clock.currentTimeMillis, (now) => apply(SessionMachine.receive(state, text, now)))
              : Effect.void
          ).pipe(Effect.andThen(endIfClosed))

        if (host !== undefined) {
          // Frames and the close come by callback, handled one at a time in order, each step on a
          // short fiber of its own; no fiber waits while the connection is idle.
          const steps: Array<Effect.Effect<void>> = []
          let draining = false
          // Not a generator (see `identify`): the next step, then itself again until none is left.
          const failed = (cause: Cause.Cause<never>) =>
            Effect.logError("gateway: a connection failed", cause).pipe(
              Effect.andThen(
                Effect.sync(() => {
                  state = SessionMachine.closeWith(state, CloseCodes.UNKNOWN_ERROR)[0]
                  closeNow(CloseCodes.UNKNOWN_ERROR)
                })
              ),
              Effect.andThen(end(undefined))
            )
          const drain: Effect.Effect<void> = Effect.suspend(() => {
            const next = steps.shift()
            if (next === undefined) {
              draining = false
              return Effect.void
            }
            return next.pipe(Effect.catchCause(failed), Effect.andThen(drain))
          })
          const enqueue = (step: Effect.Effect<void>) => {
            steps.push(step)
            if (draining) return
            draining = true
            runStep(drain)
          }
          ordered = enqueue
          host.listen(
            (text) => enqueue(receive(text)),
            (code) => enqueue(end(code))
          )
          // The Socket is not needed any more: its scope closes now, the WebSocket stays open.
          io.socket = undefined
          io.pull = undefined
          io.writer = undefined
          host.release(() => Effect.runSync(closeSocket))
          return
        }

        // A host that cannot hand its socket over: this fiber reads it until it closes. Its steps and
        // the heartbeat's take turns.
        const turn = yield* Semaphore.make(1)
        ordered = (step) => {
          runStep(turn.withPermit(step))
        }
        const read = yield* Effect.gen(function* () {
          while (open()) {
            if (io.pull === undefined) break
            const frames = yield* io.pull
            for (const text of frames) {
              if (!open()) break
              yield* turn.withPermit(receive(text))
            }
          }
        }).pipe(Effect.exit)
        yield* end(
          Exit.isFailure(read)
            ? Option.getOrUndefined(Option.map(Exit.findErrorOption(read), clientCloseCode))
            : undefined
        )
      }).pipe(
        Scope.provide(socketScope),
        // the socket failed before it opened (the client went away during the upgrade): nothing to serve
        Effect.catchTag("SocketError", () => closeSocket),
        Effect.onInterrupt(() => closeSocket)
      )
    })
  }
  return { connect, closeAll }
})
