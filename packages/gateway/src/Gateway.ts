/**
 * The gateway as hosts and the HTTP edge see it: serve one upgraded WebSocket (`connect`), report a
 * bot's session-start budget (`GET /gateway/bot`), and ask every session to reconnect before the
 * node stops (`shutdown`).
 */
import type { ChannelVisibility, GuildSnapshots, MemberChunks } from "@veche/guilds"
import type { CurrentUser, Memberships, Profiles } from "@veche/users"
import { Context, Effect, Layer } from "effect"
import type { SecureRandom } from "effect/crypto"
import type * as Socket from "effect/socket/Socket"
import { ChannelViews } from "./ChannelViews.ts"
import * as Connection from "./Connection.ts"
import type { DispatchSource } from "./DispatchSource.ts"
import type { GatewayConfig } from "./GatewayConfig.ts"
import type { GatewayIdentity } from "./GatewayIdentity.ts"
import { type Budget, IdentifyLimits } from "./IdentifyLimits.ts"
import { Sessions } from "./Sessions.ts"

export type Params = Connection.Params

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
    | GatewayConfig
    | GatewayIdentity
    | IdentifyLimits
    | CurrentUser.CurrentUser
    | Profiles.Profiles
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
      return Gateway.of({
        connect: connections.connect,
        budget: limits.budget,
        // sessions first (detached from their sockets, so they stay resumable), then every socket
        shutdown: Effect.andThen(sessions.shutdown, connections.closeAll)
      })
    })
  )

  /** With this node's sessions (fan-out from `DispatchSource`). */
  static readonly layerWithSessions: Layer.Layer<
    Gateway | Sessions,
    never,
    | DispatchSource
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
  > = Gateway.layer.pipe(Layer.provideMerge(Sessions.layer), Layer.provide(ChannelViews.layer))
}
