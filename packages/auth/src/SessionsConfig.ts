/**
 * Token lifetimes. Access tokens are short so a leaked one dies soon; a session's absolute lifetime
 * bounds how long refresh can keep it alive.
 */
import { Config, Context, Duration, Effect, Layer } from "effect"

export class SessionsConfig extends Context.Service<
  SessionsConfig,
  {
    readonly accessTokenTtl: Duration.Duration
    readonly sessionTtl: Duration.Duration
    /** Last use is written at most this often per session (not on every request). */
    readonly touchEvery: Duration.Duration
    /** How often each node removes revoked and ended sessions with their tokens (SessionSweep). */
    readonly sweepEvery: Duration.Duration
  }
>()("@veche/auth/SessionsConfig") {
  static readonly defaults = {
    accessTokenTtl: Duration.hours(1),
    sessionTtl: Duration.days(60),
    touchEvery: Duration.minutes(5),
    sweepEvery: Duration.hours(1)
  }

  static readonly layer = (options: Partial<SessionsConfig["Service"]> = {}): Layer.Layer<SessionsConfig> =>
    Layer.succeed(SessionsConfig, SessionsConfig.of({ ...SessionsConfig.defaults, ...options }))

  /**
   * `SERVICE_ACCESS_TOKEN_TTL` (1 hour), `SERVICE_SESSION_TTL` (60 days),
   * `SERVICE_SESSION_SWEEP_INTERVAL` (1 hour).
   */
  static readonly layerConfig: Layer.Layer<SessionsConfig, Config.ConfigError> = Layer.effect(
    SessionsConfig,
    Effect.gen(function* () {
      const accessTokenTtl = yield* Config.Duration("SERVICE_ACCESS_TOKEN_TTL").pipe(
        Config.withDefault(SessionsConfig.defaults.accessTokenTtl)
      )
      const sessionTtl = yield* Config.Duration("SERVICE_SESSION_TTL").pipe(
        Config.withDefault(SessionsConfig.defaults.sessionTtl)
      )
      const sweepEvery = yield* Config.Duration("SERVICE_SESSION_SWEEP_INTERVAL").pipe(
        Config.withDefault(SessionsConfig.defaults.sweepEvery)
      )
      return SessionsConfig.of({ ...SessionsConfig.defaults, accessTokenTtl, sessionTtl, sweepEvery })
    })
  )
}
