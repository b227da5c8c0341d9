/**
 * Presence: what each user shows (online, idle, dnd, invisible, or offline once their last session
 * ended and a short grace passed), kept in the PresenceStore so every node sees it, and
 * PRESENCE_UPDATE published to the user's guilds and friends only when what others see changes.
 *
 * A session's presence comes from IDENTIFY's `presence` and op 3. For a user the settings status
 * wins (PATCH /users/@me/settings, so the choice survives reconnects) unless it is `online`: then
 * what the session asks (e.g. `idle` when the client sees the person away) is shown; a custom status
 * from the settings is an activity of type 4. A bot shows what its session asks. `offline` asked by
 * a session is shown as invisible. The latest change of any of a user's sessions wins.
 *
 * This node renews the leases of its attached sessions; a node that stops (or crashes) stops
 * renewing, and every node's sweep finds those users offline once the leases lapse. Settings
 * changes and guild joins reach this node as the dispatches its sessions receive (Sessions.observe).
 */
import { EventBus, type Snowflake } from "@veche/platform"
import { Memberships, Profiles, Relationship, Relationships } from "@veche/users"
import { Clock, Context, Duration, Effect, Layer, Option, Queue, Schedule } from "effect"
import type * as Frames from "./Frames.ts"
import { GatewayConfig } from "./GatewayConfig.ts"
import * as PresenceDispatches from "./PresenceDispatches.ts"
import { type Entry, PresenceStore } from "./PresenceStore.ts"
import type * as Session from "./Session.ts"
import { Sessions } from "./Sessions.ts"

/** A session's lease: renewed every third of it, so one missed renewal does not end it. */
export const LEASE_MS = 60_000
const RENEW_EVERY_MS = LEASE_MS / 3
/** How often the sweep looks for users whose last session here is gone, while one may be due. */
const SWEEP_EVERY_MS = 1000
/**
 * How often it looks otherwise: for users of a node that stopped without ending its sessions, whose
 * leases lapse on their own. Coarse on purpose: an idle node (or a test moving its clock by days)
 * wakes once a lease, not once a second.
 */
const IDLE_SWEEP_EVERY_MS = LEASE_MS

/** What an IDENTIFY read while its session was already listening (so as fresh as a read here). */
export interface Known {
  readonly guildIds: ReadonlyArray<Snowflake.Snowflake>
  /** A user's settings (undefined for a bot). */
  readonly settings: Profiles.Settings | undefined
}

/** A dispatch this node received that changes a user's presence. */
type Change =
  | { readonly _tag: "Settings"; readonly userId: Snowflake.Snowflake }
  | { readonly _tag: "Joined" | "Left"; readonly userId: Snowflake.Snowflake; readonly guildId: Snowflake.Snowflake }

export class Presence extends Context.Service<
  Presence,
  {
    /**
     * A session started (after IDENTIFY), with IDENTIFY's `presence`, and what the IDENTIFY has just
     * read itself once listening (the user's guilds, a user's settings), not read again here.
     */
    readonly connected: (
      session: Session.Session,
      asked: Frames.PresenceData | undefined,
      known?: Known
    ) => Effect.Effect<void>
    /** op 3 from a session. */
    readonly update: (session: Session.Session, asked: Frames.PresenceData) => Effect.Effect<void>
    /** A session's socket is gone (the user goes offline after the grace unless another session lives). */
    readonly detached: (session: Session.Session) => Effect.Effect<void>
    /** A resumed session counts again, with what it last asked. */
    readonly resumed: (session: Session.Session) => Effect.Effect<void>
    /** The present friends of a user, for READY. */
    readonly ofFriends: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<PresenceDispatches.Presence>>
    /** The visible (not offline) presences among these users, without a guild (GUILD_MEMBERS_CHUNK). */
    readonly among: (
      userIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyArray<PresenceDispatches.Presence>>
    /** The visible members of a guild, for GUILD_CREATE. */
    readonly inGuild: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<PresenceDispatches.Presence>>
    /** This node stops: its sessions' users go offline after the grace unless they reconnect elsewhere. */
    readonly shutdown: Effect.Effect<void>
  }
>()("@veche/gateway/Presence") {
  static readonly layer: Layer.Layer<
    Presence,
    never,
    | PresenceStore
    | Sessions
    | GatewayConfig
    | EventBus.EventBus
    | Profiles.Profiles
    | Memberships.Memberships
    | Relationships.Relationships
  > = Layer.effect(
    Presence,
    Effect.gen(function* () {
      const store = yield* PresenceStore
      const sessions = yield* Sessions
      const config = yield* GatewayConfig
      const events = yield* EventBus.EventBus
      const profiles = yield* Profiles.Profiles
      const memberships = yield* Memberships.Memberships
      const relationships = yield* Relationships.Relationships

      /** What each session last asked (kept with the session object: a resume finds it). */
      const asked = new WeakMap<Session.Session, Frames.PresenceData | undefined>()
      /** This node's attached sessions, whose leases it renews. */
      const attached = new Map<string, Session.Session>()

      const friendsOf = (userId: Snowflake.Snowflake) =>
        Effect.map(relationships.list(userId), (rows) =>
          rows.filter((row) => row.relationship.type === Relationship.FRIEND).map((row) => row.relationship.otherId)
        )

      /** Tells the user's guilds and friends, when what they see changed. */
      const announce = Effect.fnUntraced(function* (
        userId: Snowflake.Snowflake,
        before: PresenceDispatches.Shown,
        after: PresenceDispatches.Shown,
        guildIds: ReadonlyArray<Snowflake.Snowflake>
      ) {
        if (PresenceDispatches.sameShown(before, after)) return
        // one dispatch per guild: each names its guild, as the platform's do
        for (const guildId of guildIds)
          yield* events.publish({
            type: "PRESENCE_UPDATE",
            userIds: [],
            guildIds: [guildId],
            data: PresenceDispatches.presence(userId, after, guildId)
          })
        const friends = yield* friendsOf(userId)
        if (friends.length > 0)
          yield* events.publish({
            type: "PRESENCE_UPDATE",
            userIds: friends,
            data: PresenceDispatches.presence(userId, after)
          })
      })

      /** The presence a session shows, from what it asked and (for a user) the settings. */
      const entryOf = Effect.fnUntraced(function* (session: Session.Session, known: Known | undefined) {
        const wanted = asked.get(session)
        const status = wanted === undefined || wanted.status === "offline" ? "online" : wanted.status
        const chosen = wanted?.status === "offline" ? "invisible" : status
        const activities = (wanted?.activities ?? []).map((activity) => ({
          type: activity.type,
          name: activity.name,
          ...(activity.state === undefined ? {} : { state: activity.state }),
          ...(activity.url === undefined ? {} : { url: activity.url })
        }))
        if (session.bot) return { status: chosen, activities } satisfies Entry
        const settings = known?.settings ?? (yield* profiles.settings(session.userId))
        return {
          status: settings.status === "online" ? chosen : settings.status,
          activities: [
            ...(settings.custom_status === null ? [] : [PresenceDispatches.customStatus(settings.custom_status.text)]),
            // the custom status is the settings' alone
            ...activities.filter((activity) => activity.type !== 4)
          ]
        } satisfies Entry
      })

      /** Stores the session's presence (with its lease when `leased`) and announces a visible change. */
      const put = Effect.fnUntraced(function* (session: Session.Session, leased: boolean, known?: Known) {
        const entry = yield* entryOf(session, known)
        const guildIds = known?.guildIds ?? (yield* memberships.guildsOf(session.userId))
        const now = yield* Clock.currentTimeMillis
        const before = yield* store.put(
          session.userId,
          entry,
          guildIds,
          leased ? { id: session.id, now, until: now + LEASE_MS } : undefined
        )
        // not present and no lease given: nothing was written, nothing changed
        if (!leased && Option.isNone(before)) return
        yield* announce(
          session.userId,
          PresenceDispatches.shown(before),
          PresenceDispatches.shown(Option.some(entry)),
          guildIds
        )
      })

      const sweepEveryMs = Math.min(SWEEP_EVERY_MS, Math.max(100, config.presenceGraceMs))
      // Until when a session that ended here may leave its user to be swept (grace and one round),
      // and the signal that wakes the idle sweep for it.
      let busyUntil = 0
      const wake = yield* Queue.sliding<void>(1)

      const ended = (session: Session.Session) =>
        Effect.gen(function* () {
          if (attached.get(session.id) !== session) return
          attached.delete(session.id)
          const now = yield* Clock.currentTimeMillis
          yield* store.end(session.userId, session.id, now, now + config.presenceGraceMs)
          busyUntil = Math.max(busyUntil, now + config.presenceGraceMs + 2 * sweepEveryMs)
          Queue.offerUnsafe(wake, undefined)
        })

      /** The most recent attached session of a user on this node, if any. */
      const localSessionOf = (userId: Snowflake.Snowflake) => {
        let found: Session.Session | undefined
        for (const session of attached.values()) if (session.userId === userId) found = session
        return found
      }

      // What this node's sessions receive that changes presence: a user's settings (their status
      // or custom status) and guilds joined or left. Handled off the fan-out fiber, in order.
      const changes = yield* Queue.unbounded<Change>()
      yield* sessions.observe((dispatch) => {
        if (dispatch.guildIds !== undefined && dispatch.guildIds.length > 0) return
        if (dispatch.type === "USER_SETTINGS_UPDATE")
          for (const userId of dispatch.userIds) Queue.offerUnsafe(changes, { _tag: "Settings", userId })
        else if (dispatch.type === "GUILD_CREATE")
          for (const userId of dispatch.userIds)
            Queue.offerUnsafe(changes, { _tag: "Joined", userId, guildId: dispatch.data.id })
        else if (dispatch.type === "GUILD_DELETE")
          for (const userId of dispatch.userIds)
            Queue.offerUnsafe(changes, { _tag: "Left", userId, guildId: dispatch.data.id })
      })
      const handle = Effect.fnUntraced(function* (change: Change) {
        const session = localSessionOf(change.userId)
        // presence lives with sessions: a user with none here is handled by the node that has one
        if (session === undefined) return
        if (change._tag === "Settings") yield* put(session, false)
        else if (change._tag === "Joined") {
          // shown there for the first time: the guild's other sessions learn it (after the
          // GUILD_MEMBER_ADD the join published first), as on the platform
          if (yield* store.joinGuild(change.userId, change.guildId)) {
            const found = yield* store.get([change.userId])
            const view = PresenceDispatches.shown(Option.fromUndefinedOr(found.get(change.userId)))
            if (view.status !== "offline")
              yield* events.publish({
                type: "PRESENCE_UPDATE",
                userIds: [],
                guildIds: [change.guildId],
                data: PresenceDispatches.presence(change.userId, view, change.guildId)
              })
          }
        } else yield* store.leaveGuild(change.userId, change.guildId)
      })
      yield* Queue.take(changes).pipe(
        Effect.flatMap((change) =>
          handle(change).pipe(Effect.catchCause((cause) => Effect.logError("gateway presence: change failed", cause)))
        ),
        Effect.forever,
        Effect.forkScoped
      )

      // Leases of attached sessions renewed; one the store lost (it lapsed) is put again.
      const renew = Effect.gen(function* () {
        if (attached.size === 0) return
        const now = yield* Clock.currentTimeMillis
        const lost = yield* store.refresh(
          [...attached.values()].map((session) => ({ userId: session.userId, sessionId: session.id })),
          now,
          now + LEASE_MS
        )
        for (const sessionId of lost) {
          const session = attached.get(sessionId)
          if (session !== undefined) yield* put(session, true)
        }
      })
      yield* renew.pipe(
        Effect.catchCause((cause) => Effect.logError("gateway presence: renewal failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.millis(RENEW_EVERY_MS))),
        Effect.forkScoped
      )

      // Users whose last session is gone (here or on a node that stopped): offline, told once.
      const sweep = Effect.gen(function* () {
        const claimed = yield* store.sweep(yield* Clock.currentTimeMillis)
        for (const gone of claimed)
          yield* announce(
            gone.userId,
            PresenceDispatches.shown(Option.some(gone.entry)),
            PresenceDispatches.OFFLINE,
            gone.guildIds
          )
      })
      // Every round while a user who left here may be due, else once a lease or when one leaves.
      const pause = Effect.flatMap(Clock.currentTimeMillis, (now) =>
        now < busyUntil
          ? Effect.sleep(Duration.millis(sweepEveryMs))
          : Effect.race(Effect.sleep(Duration.millis(IDLE_SWEEP_EVERY_MS)), Queue.take(wake))
      )
      yield* sweep.pipe(
        Effect.catchCause((cause) => Effect.logError("gateway presence: sweep failed", cause)),
        Effect.andThen(pause),
        Effect.forever,
        Effect.forkScoped
      )

      const listed = (entries: ReadonlyMap<Snowflake.Snowflake, Entry>, guildId?: Snowflake.Snowflake) => {
        const out: Array<PresenceDispatches.Presence> = []
        for (const [userId, entry] of entries) {
          const view = PresenceDispatches.shown(Option.some(entry))
          if (view.status !== "offline") out.push(PresenceDispatches.presence(userId, view, guildId))
        }
        return out
      }

      // A guild joined: its members shown online and the joiner (whose join this node may not have
      // applied to the store yet), for the GUILD_CREATE the joiner's sessions receive.
      yield* sessions.presencesOnJoin((guildId, userId) =>
        Effect.flatMap(store.visibleIn(guildId), (ids) =>
          Effect.map(store.get(ids.includes(userId) ? ids : [...ids, userId]), (found) => listed(found))
        )
      )

      const shutdown = Effect.gen(function* () {
        for (const session of [...attached.values()]) yield* ended(session)
      })
      yield* Effect.addFinalizer(() => shutdown.pipe(Effect.ignore))

      return Presence.of({
        connected: (session, wanted, known) =>
          Effect.suspend(() => {
            asked.set(session, wanted)
            attached.set(session.id, session)
            return put(session, true, known)
          }),
        update: (session, wanted) =>
          Effect.suspend(() => {
            asked.set(session, wanted)
            return put(session, attached.get(session.id) === session)
          }),
        detached: ended,
        resumed: (session) =>
          Effect.suspend(() => {
            attached.set(session.id, session)
            return put(session, true)
          }),
        ofFriends: (userId) =>
          Effect.flatMap(friendsOf(userId), (friends) => Effect.map(store.get(friends), (found) => listed(found))),
        among: (userIds) =>
          userIds.length === 0 ? Effect.succeed([]) : Effect.map(store.get(userIds), (found) => listed(found)),
        inGuild: (guildId) => Effect.flatMap(store.visibleIn(guildId), (ids) => Effect.map(store.get(ids), listed)),
        shutdown
      })
    })
  )
}
