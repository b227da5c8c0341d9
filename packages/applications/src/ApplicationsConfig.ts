/**
 * The applications domain's setting: `SERVICE_APPLICATIONS_REQUIRE_MFA` (default false) makes
 * creating an application require two-factor authentication on the owner's account.
 */
import { Config, Context, Effect, Layer } from "effect"

export class ApplicationsConfig extends Context.Service<ApplicationsConfig, { readonly requireMfa: boolean }>()(
  "@veche/applications/ApplicationsConfig"
) {
  static readonly layer = (settings: { readonly requireMfa: boolean }): Layer.Layer<ApplicationsConfig> =>
    Layer.succeed(ApplicationsConfig, ApplicationsConfig.of(settings))

  static readonly layerConfig: Layer.Layer<ApplicationsConfig, Config.ConfigError> = Layer.effect(
    ApplicationsConfig,
    Effect.map(Config.Boolean("SERVICE_APPLICATIONS_REQUIRE_MFA").pipe(Config.withDefault(false)), (requireMfa) =>
      ApplicationsConfig.of({ requireMfa })
    )
  )
}
