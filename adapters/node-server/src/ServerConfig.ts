/**
 * The reference server's settings, all from environment variables (README lists each with its
 * default). Read once at start; a bad value stops the start with a message naming the variable.
 */
import { IdentifyLimits } from "@veche/gateway"
import { ServiceInfo } from "@veche/platform"
import { PgDatabase } from "@veche/postgres"
import { GatewayUrl, TrustedProxies } from "@veche/rest"
import { Config, ConfigProvider, Duration, Effect, type LogLevel, Option, Redacted, Schema } from "effect"
import type { IpNetwork } from "effect/net"

export interface ServerConfig {
  /** `SERVICE_ENV` (default `dev`: dev outbox served, any captcha accepted). */
  readonly env: ServiceInfo.Environment
  /** `SERVICE_DEV_ON_NETWORK`: dev mode was allowed on an address other than loopback. */
  readonly devOnNetwork: boolean
  readonly host: string
  readonly port: number
  /** PostgreSQL to use; none means the embedded PostgreSQL in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  /** Keep the tables in this schema of DATABASE_URL's database (created if missing). */
  readonly databaseSchema: Option.Option<string>
  /** The connection pool's size (DATABASE_URL and the embedded database alike). */
  readonly databaseMaxConnections: number
  /** Pipelining of concurrent statements on each pooled connection (PgDatabase.Options.multiplex). */
  readonly databaseMultiplex: boolean
  /** Access-token lookups kept in this process, 0 for none (PgDatabase.Options.principalCacheEntries). */
  readonly databasePrincipalCache: number
  readonly dataDir: string
  /** Whether SERVICE_DATA_DIR was set (a configured folder is never replaced by a fallback). */
  readonly dataDirConfigured: boolean
  /** Redis shared by several nodes (rate-limit counters); none keeps them in this process. */
  readonly redisUrl: Option.Option<Redacted.Redacted<string>>
  /**
   * What every Redis key and channel of this deployment starts with (`SERVICE_REDIS_PREFIX`,
   * default `veche:`): deployments (staging beside production, parallel test runs) that share one
   * Redis keep their counters, presence and dispatches apart.
   */
  readonly redisPrefix: string
  readonly gatewayUrl: string
  /** SERVICE_GATEWAY_URL was set; otherwise the URL follows the port the server listens on (PORT=0). */
  readonly gatewayUrlConfigured: boolean
  readonly logLevel: LogLevel.LogLevel
  readonly accessLog: boolean
  /** Peers whose X-Forwarded-For is believed. */
  readonly trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>
  /** Origins whose browser pages may call the API (CORS); see `corsOrigins`. */
  readonly corsOrigins: ReadonlyArray<string>
  readonly shutdownTimeout: Duration.Duration
  /** Longest wait for a request's headers (slow-loris); then Node answers 408 and closes. */
  readonly headersTimeout: Duration.Duration
  /** Longest wait for a whole request, body included, from its first byte; then 408 and close. */
  readonly requestTimeout: Duration.Duration
  /**
   * How often a user (not a bot) may identify: `SERVICE_GATEWAY_USER_IDENTIFY_BURST` per 5 s window
   * (default 5) and `SERVICE_GATEWAY_USER_IDENTIFY_DAILY` a day (default 1000).
   */
  readonly userIdentifyLimits: IdentifyLimits.UserLimits
}

/**
 * Whether only this machine can reach `HOST`. Dev mode answers `/dev/outbox` (every SMS code and
 * e-mail link) and takes any captcha: reachable from a network, anyone there can take any account.
 */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host
  const lower = bare.toLowerCase()
  return (
    lower === "localhost" ||
    lower === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(lower)
  )
}

const configError = (message: string) => new Config.ConfigError(new ConfigProvider.SourceError({ message }))

const LOG_LEVELS = ["All", "Trace", "Debug", "Info", "Warn", "Error", "Fatal", "None"] as const

/** When the server listens on every interface, a browser or bot on this machine still reaches loopback. */
const reachableHost = (host: string) =>
  host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host

export const defaultGatewayUrl = (host: string, port: number): string => `ws://${reachableHost(host)}:${port}/gateway`

/** The server's own URL for a browser on this machine: where dev letters link to its web pages. */
export const ownUrl = (host: string, port: number): string => `http://${reachableHost(host)}:${port}`

/** `scheme://host[:port]` as browsers send it in `Origin`; anything else is a configuration error. */
const asOrigin = (value: string): string | undefined => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin !== "null" ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * `SERVICE_CORS_ORIGINS`: comma-separated origins whose pages may call the API from a browser (a
 * front end served elsewhere). Unset: the origin of `SERVICE_WEB_URL` when that is set (the pages
 * the letters link to call the API), else none (the reference server's own pages are same-origin).
 * `none` turns CORS off (an empty value counts as unset, as elsewhere).
 */
const corsOrigins = Effect.gen(function* () {
  const configured = yield* Config.String("SERVICE_CORS_ORIGINS").pipe(Config.option)
  const webUrl = yield* Config.String("SERVICE_WEB_URL").pipe(Config.option)
  const listed = Option.match(configured, {
    onNone: () => Option.toArray(webUrl),
    onSome: (list) =>
      (list.trim().toLowerCase() === "none" ? "" : list)
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "")
  })
  const origins: Array<string> = []
  for (const entry of listed) {
    const origin = asOrigin(entry)
    if (origin === undefined) {
      return yield* Effect.fail(
        configError(`SERVICE_CORS_ORIGINS / SERVICE_WEB_URL: "${entry.slice(0, 100)}" is not an http(s) origin`)
      )
    }
    origins.push(origin)
  }
  return origins
})

export const load: Effect.Effect<ServerConfig, Config.ConfigError> = Effect.gen(function* () {
  const host = yield* Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
  const env = yield* Config.Literals(ServiceInfo.ENVIRONMENTS, "SERVICE_ENV").pipe(Config.withDefault("dev" as const))
  const devOnNetwork = yield* Config.Boolean("SERVICE_DEV_ON_NETWORK").pipe(Config.withDefault(false))
  if (env === "dev" && !devOnNetwork && !isLoopbackHost(host)) {
    return yield* Effect.fail(
      configError(
        `refusing to start in dev mode (SERVICE_ENV unset or dev) on HOST=${host}: dev mode shows every SMS code and ` +
          "e-mail link at /dev/outbox and accepts any captcha, so anyone who can reach this address could take " +
          "over any account. Set SERVICE_ENV=staging or prod (with real providers), listen on loopback " +
          "(HOST=127.0.0.1), or, on a network you trust, set SERVICE_DEV_ON_NETWORK=true."
      )
    )
  }
  // 0 asks the OS for a free port (the start line then shows which).
  const port = yield* Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 65535 }))),
    "PORT"
  ).pipe(Config.withDefault(8080))
  // An empty DATABASE_URL (common in .env files) means "not set": the embedded database.
  const databaseUrl = yield* Config.Redacted("DATABASE_URL").pipe(
    Config.option,
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  )
  const databaseSchema = yield* Config.String("DATABASE_SCHEMA").pipe(Config.option)
  const databaseMaxConnections = yield* Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 1000 }))),
    "DATABASE_MAX_CONNECTIONS"
  ).pipe(Config.withDefault(10))
  const databaseMultiplex = yield* Config.Boolean("DATABASE_MULTIPLEX").pipe(Config.withDefault(true))
  const databasePrincipalCache = yield* Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 }))),
    "DATABASE_PRINCIPAL_CACHE"
  ).pipe(Config.withDefault(PgDatabase.DEFAULT_PRINCIPAL_CACHE_ENTRIES))
  const redisUrl = yield* Config.Redacted("REDIS_URL").pipe(
    Config.option,
    Config.map(Option.filter((url) => Redacted.value(url).trim() !== ""))
  )
  const redisPrefix = yield* Config.schema(
    Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9:_.-]{1,64}$/))),
    "SERVICE_REDIS_PREFIX"
  ).pipe(Config.withDefault("veche:"))
  const configuredDataDir = yield* Config.String("SERVICE_DATA_DIR").pipe(
    Config.option,
    Config.map(Option.filter((dir) => dir.trim() !== ""))
  )
  const dataDir = Option.getOrElse(configuredDataDir, () => "./.veche")
  const dataDirConfigured = Option.isSome(configuredDataDir)
  const configuredGatewayUrl = yield* Config.schema(GatewayUrl.GatewayUrlString, "SERVICE_GATEWAY_URL").pipe(
    Config.option
  )
  const gatewayUrl = Option.getOrElse(configuredGatewayUrl, () => defaultGatewayUrl(host, port))
  const gatewayUrlConfigured = Option.isSome(configuredGatewayUrl)
  const logLevel = yield* Config.Literals(LOG_LEVELS, "SERVICE_LOG_LEVEL").pipe(Config.withDefault("Info" as const))
  const accessLog = yield* Config.Boolean("SERVICE_ACCESS_LOG").pipe(Config.withDefault(true))
  const shutdownTimeout = yield* Config.Duration("SERVICE_SHUTDOWN_TIMEOUT").pipe(
    Config.withDefault(Duration.seconds(10))
  )
  const trustedProxies = yield* TrustedProxies.config
  const cors = yield* corsOrigins
  const headersTimeout = yield* Config.Duration("SERVICE_HEADERS_TIMEOUT").pipe(
    Config.withDefault(Duration.seconds(20))
  )
  const requestTimeout = yield* Config.Duration("SERVICE_REQUEST_TIMEOUT").pipe(
    Config.withDefault(Duration.seconds(60))
  )
  const positive = Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(1)))
  const userIdentifyBurst = yield* Config.schema(positive, "SERVICE_GATEWAY_USER_IDENTIFY_BURST").pipe(
    Config.withDefault(IdentifyLimits.DEFAULT_USER_LIMITS.burst)
  )
  const userIdentifyDaily = yield* Config.schema(positive, "SERVICE_GATEWAY_USER_IDENTIFY_DAILY").pipe(
    Config.withDefault(IdentifyLimits.DEFAULT_USER_LIMITS.total)
  )
  // Node refuses a headers timeout longer than the request's (the headers are part of the request).
  if (Duration.isGreaterThan(headersTimeout, requestTimeout) || Duration.toMillis(requestTimeout) < 1) {
    return yield* Effect.fail(
      configError("SERVICE_HEADERS_TIMEOUT must not be longer than SERVICE_REQUEST_TIMEOUT, and both above zero")
    )
  }
  return {
    env,
    devOnNetwork,
    host,
    port,
    databaseUrl,
    databaseSchema,
    databaseMaxConnections,
    databaseMultiplex,
    databasePrincipalCache,
    dataDir,
    dataDirConfigured,
    redisUrl,
    redisPrefix,
    gatewayUrl,
    gatewayUrlConfigured,
    logLevel,
    accessLog,
    trustedProxies,
    corsOrigins: cors,
    shutdownTimeout,
    headersTimeout,
    requestTimeout,
    userIdentifyLimits: { total: userIdentifyDaily, burst: userIdentifyBurst }
  }
})
