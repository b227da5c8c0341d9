/**
 * Who this server is: its build version and the environment it runs in (`SERVICE_ENV`). Dev-only
 * routes (the dev outbox) and dev adapters key off `env`; `GET /version` reports both.
 */
import { Config, Context, Layer } from "effect"

export const ENVIRONMENTS = ["dev", "staging", "prod"] as const
export type Environment = (typeof ENVIRONMENTS)[number]

export class ServiceInfo extends Context.Service<
  ServiceInfo,
  { readonly version: string; readonly env: Environment }
>()("@veche/platform/ServiceInfo") {
  static readonly layer = (info: { readonly version: string; readonly env: Environment }): Layer.Layer<ServiceInfo> =>
    Layer.succeed(ServiceInfo, ServiceInfo.of(info))

  /** `SERVICE_ENV` (default `dev`); the version is the host's to give (its package version). */
  static readonly layerConfig = (version: string): Layer.Layer<ServiceInfo, Config.ConfigError> =>
    Layer.effect(
      ServiceInfo,
      Config.Literals(ENVIRONMENTS, "SERVICE_ENV").pipe(
        Config.withDefault("dev" as const),
        Config.map((env) => ServiceInfo.of({ version, env }))
      )
    )
}
