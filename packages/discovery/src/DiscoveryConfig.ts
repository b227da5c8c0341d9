/**
 * The catalogue's settings. Publication conditions, each turned off by 0 (or false, or an empty
 * list), scaled for a new platform (the mirrored one asks 1000 members and 8 weeks):
 *
 * - `SERVICE_DISCOVERY_MIN_MEMBERS` (default 20): members a guild needs.
 * - `SERVICE_DISCOVERY_MIN_AGE_DAYS` (default 7): days since the guild was created.
 * - `SERVICE_DISCOVERY_MIN_VERIFICATION_LEVEL` (default 1, low: a verified e-mail or phone).
 * - `SERVICE_DISCOVERY_REQUIRE_RULES_CHANNEL` (default true): a rules channel is set.
 * - `SERVICE_DISCOVERY_REQUIRE_OWNER_2FA` (default true): the owner has two-factor authentication.
 * - `SERVICE_DISCOVERY_DISALLOWED_WORDS` (comma-separated, default empty): words that may not appear
 *   in the name, the card's description and tags, or channel names (whole words, case-insensitive).
 *
 * And the auto-hide rule: `SERVICE_DISCOVERY_AUTO_HIDE_REPORTS` (default 5) open reports hide a
 * listed guild (`auto_hidden`) until staff look at it.
 */
import { Config, Context, Effect, Layer, Schema } from "effect"

export interface Settings {
  readonly minMembers: number
  readonly minAgeDays: number
  readonly minVerificationLevel: number
  readonly requireRulesChannel: boolean
  readonly requireOwnerTwoFactor: boolean
  readonly disallowedWords: ReadonlyArray<string>
  readonly autoHideReports: number
}

export const defaults: Settings = {
  minMembers: 20,
  minAgeDays: 7,
  minVerificationLevel: 1,
  requireRulesChannel: true,
  requireOwnerTwoFactor: true,
  disallowedWords: [],
  autoHideReports: 5
}

/** A whole number in 0..max (0 turns the condition off). */
const count = (name: string, fallback: number, max: number) =>
  Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: max }))),
    name
  ).pipe(Config.withDefault(fallback))

export class DiscoveryConfig extends Context.Service<DiscoveryConfig, Settings>()("@veche/discovery/DiscoveryConfig") {
  static readonly layer = (settings: Partial<Settings> = {}): Layer.Layer<DiscoveryConfig> =>
    Layer.succeed(DiscoveryConfig, DiscoveryConfig.of({ ...defaults, ...settings }))

  static readonly layerConfig: Layer.Layer<DiscoveryConfig, Config.ConfigError> = Layer.effect(
    DiscoveryConfig,
    Effect.gen(function* () {
      const minMembers = yield* count("SERVICE_DISCOVERY_MIN_MEMBERS", defaults.minMembers, 1_000_000)
      const minAgeDays = yield* count("SERVICE_DISCOVERY_MIN_AGE_DAYS", defaults.minAgeDays, 3650)
      const minVerificationLevel = yield* count(
        "SERVICE_DISCOVERY_MIN_VERIFICATION_LEVEL",
        defaults.minVerificationLevel,
        4
      )
      const requireRulesChannel = yield* Config.Boolean("SERVICE_DISCOVERY_REQUIRE_RULES_CHANNEL").pipe(
        Config.withDefault(defaults.requireRulesChannel)
      )
      const requireOwnerTwoFactor = yield* Config.Boolean("SERVICE_DISCOVERY_REQUIRE_OWNER_2FA").pipe(
        Config.withDefault(defaults.requireOwnerTwoFactor)
      )
      const words = yield* Config.String("SERVICE_DISCOVERY_DISALLOWED_WORDS").pipe(Config.withDefault(""))
      const autoHideReports = yield* count("SERVICE_DISCOVERY_AUTO_HIDE_REPORTS", defaults.autoHideReports, 1_000_000)
      return DiscoveryConfig.of({
        minMembers,
        minAgeDays,
        minVerificationLevel,
        requireRulesChannel,
        requireOwnerTwoFactor,
        disallowedWords: words
          .split(",")
          .map((word) => word.trim().toLowerCase())
          .filter((word) => word !== ""),
        autoHideReports
      })
    })
  )
}
