/**
 * The gateway as hosts and the HTTP edge see it: serve one upgraded WebSocket (`connect`), report a
 * bot's session-start budget (`GET /gateway/bot`), and ask every session to reconnect before the
 * node stops (`shutdown`).
 */
import type { ChannelVisibility, GuildSnapshots, MemberChunks } from "@veche/guilds"
import type { EventBus } from "@veche/platform"
import type { CurrentUser, Memberships, Profiles, Relationships } from "@veche/users"
import { Context, Effect, Layer } from "effect"
import type { SecureRandom } from "effect/crypto"
import type * as Socket from "effect/socket/Socket"
import { ChannelViews } from "./ChannelViews.ts"
import * as Connection from "./Connection.ts"
import type { DispatchSource } from "./DispatchSource.ts"
import type { GatewayConfig } from "./GatewayConfig.ts"
import type { GatewayIdentity } from "./GatewayIdentity.ts"
import { type Budget, IdentifyLimits } from "./IdentifyLimits.ts"
import { Presence } from "./Presence.ts"
import type { PresenceStore } from "./PresenceStore.ts"
import { Sessions } from "./Sessions.ts"

export type Params = Connection.Params
export type HostSocket = Connection.HostSocket

export class Gateway extends Context.Service<
  Gateway,
  {
    /** Serves one connection until its socket closes. */
    readonly connect: (socket: Socket.Socket, params: Params) => Effect.Effect<void>
    readonly budget: (botId: string) => Effect.Effect<Budget>
    /** op 7 to every session of this node, and their sockets closed (before the HTTP server stops). */
    readonly shutdown: Effect.Effect<void>
  }
>()("@veche/gateway/Gateway") {
  static readonly layer: Layer.Layer<
    Gateway,
    never,
    | Sessions
    | Presence
    | GatewayConfig
    | GatewayIdentity
    | IdentifyLimits
    | CurrentUser.CurrentUser
    | Memberships.Memberships
    | GuildSnapshots.GuildSnapshots
    | MemberChunks.MemberChunks
    | SecureRandom.SecureRandom
  > = Layer.effect(
    Gateway,
    Effect.gen(function* () {
      const connections = yield* Connection.make
      const limits = yield* IdentifyLimits
      const sessions = yield* Sessions
      const presence = yield* Presence
      return Gateway.of({
        connect: connections.connect,
        budget: limits.budget,
        // sessions first (detached from their sockets, so they stay resumable), then every socket
        // and their users' presence left to lapse (after the grace, unless they reconnect elsewhere)
        shutdown: Effect.andThen(sessions.shutdown, connections.closeAll).pipe(Effect.andThen(presence.shutdown))
      })
    })
  )

  /** With this node's sessions (fan-out from `DispatchSource`) and presence (kept in `PresenceStore`). */
  static readonly layerWithSessions: Layer.Layer<
    Gateway | Sessions | Presence,
    never,
    | DispatchSource
    | PresenceStore
    | EventBus.EventBus
    | Relationships.Relationships
    | GatewayConfig
    | GatewayIdentity
    | IdentifyLimits
    | CurrentUser.CurrentUser
    | Profiles.Profiles
    | Memberships.Memberships
    | GuildSnapshots.GuildSnapshots
    | ChannelVisibility.ChannelVisibility
    | MemberChunks.MemberChunks
    | SecureRandom.SecureRandom
  > = Gateway.layer.pipe(
    Layer.provideMerge(Presence.layer),
    Layer.provideMerge(Sessions.layer),
    Layer.provide(ChannelViews.layer)
  )
}
