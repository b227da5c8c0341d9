/**
 * The gateway's settings: the heartbeat interval HELLO announces, this node's own URL for
 * `resume_gateway_url` (a resume must come back to the node holding the session), how long a
 * dropped session stays resumable, how many dispatches it keeps for replay, and how often open
 * sessions' credentials are asked again.
 */
import { Config, Context, Duration, Effect, Layer, Option } from "effect"

export interface Settings {
  readonly heartbeatIntervalMs: number
  /** READY's `resume_gateway_url`: this node, reachable directly. */
  readonly resumeGatewayUrl: string
  /** How long a session whose socket dropped (not closed with 1000/1001) may be resumed. */
  readonly resumeWindowMs: number
  /** Dispatches kept per session for a resume; older ones are dropped (a resume past them gets op 9). */
  readonly replayLimit: number
  /** How long a user stays shown online after their last session ends (a reconnect within it does not flap). */
  readonly presenceGraceMs: number
  /**
   * Bytes a connection may have waiting to be sent (a client that does not read): past them it is
   * closed with 4000, and its session stays resumable.
   */
  readonly maxBufferedBytes: number
  /**
   * How often every open session's login session (a bot's token) is asked again, whether or not
   * word of a change came (CredentialWatch): the bound on how late a revocation closes a session
   * where no word comes (memory stores, a lost notification).
   */
  readonly credentialCheckIntervalMs: number
}

/** The platform's interval. */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 41_250
export const DEFAULT_RESUME_WINDOW_MS = 3 * 60_000
export const DEFAULT_REPLAY_LIMIT = 1000
export const DEFAULT_PRESENCE_GRACE_MS = 5000
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024

export class GatewayConfig extends Context.Service<GatewayConfig, Settings>()("@veche/gateway/GatewayConfig") {
  static readonly layer = (
    settings: Partial<Settings> & { readonly resumeGatewayUrl: string }
  ): Layer.Layer<GatewayConfig> =>
    Layer.succeed(
      GatewayConfig,
      GatewayConfig.of({
        heartbeatIntervalMs: settings.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
        resumeGatewayUrl: settings.resumeGatewayUrl,
        resumeWindowMs: settings.resumeWindowMs ?? DEFAULT_RESUME_WINDOW_MS,
        replayLimit: settings.replayLimit ?? DEFAULT_REPLAY_LIMIT,
        presenceGraceMs: settings.presenceGraceMs ?? DEFAULT_PRESENCE_GRACE_MS,
        maxBufferedBytes: settings.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
        // at least a second: every open session is asked about each time
        credentialCheckIntervalMs: Math.max(
          1000,
          settings.credentialCheckIntervalMs ?? settings.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS
        )
      })
    )

  /**
   * From the environment: `SERVICE_GATEWAY_NODE_URL` (default: what `gatewayUrl` answers when
   * READY is sent, right for a single node), `SERVICE_GATEWAY_HEARTBEAT_INTERVAL` (default 41.25 s),
   * `SERVICE_GATEWAY_PRESENCE_GRACE` (default 5 s), `SERVICE_GATEWAY_MAX_BUFFERED` (bytes waiting
   * for a slow client, default 4 MiB) and `SERVICE_GATEWAY_CREDENTIAL_CHECK` (how often open sessions'
   * credentials are asked again, default the heartbeat interval).
   */
  static readonly layerConfig = (gatewayUrl: () => string): Layer.Layer<GatewayConfig, Config.ConfigError> =>
    Layer.effect(
      GatewayConfig,
      Effect.gen(function* () {
        const nodeUrl = yield* Config.option(Config.String("SERVICE_GATEWAY_NODE_URL"))
        const interval = yield* Config.Duration("SERVICE_GATEWAY_HEARTBEAT_INTERVAL").pipe(
          Config.withDefault(Duration.millis(DEFAULT_HEARTBEAT_INTERVAL_MS))
        )
        const grace = yield* Config.Duration("SERVICE_GATEWAY_PRESENCE_GRACE").pipe(
          Config.withDefault(Duration.millis(DEFAULT_PRESENCE_GRACE_MS))
        )
        const maxBuffered = yield* Config.Int("SERVICE_GATEWAY_MAX_BUFFERED").pipe(
          Config.withDefault(DEFAULT_MAX_BUFFERED_BYTES)
        )
        const credentialCheck = yield* Config.option(Config.Duration("SERVICE_GATEWAY_CREDENTIAL_CHECK"))
        const heartbeatIntervalMs = Math.max(1000, Duration.toMillis(interval))
        const own = Option.filter(nodeUrl, (url) => url.trim() !== "")
        return GatewayConfig.of({
          heartbeatIntervalMs,
          // read at each READY: the default follows the port the server ends up listening on
          get resumeGatewayUrl() {
            return Option.getOrElse(own, gatewayUrl)
          },
          resumeWindowMs: DEFAULT_RESUME_WINDOW_MS,
          replayLimit: DEFAULT_REPLAY_LIMIT,
          presenceGraceMs: Duration.toMillis(grace),
          maxBufferedBytes: Math.max(64 * 1024, maxBuffered),
          credentialCheckIntervalMs: Option.match(credentialCheck, {
            onNone: () => heartbeatIntervalMs,
            onSome: (every) => Math.max(1000, Duration.toMillis(every))
          })
        })
      })
    )
}
