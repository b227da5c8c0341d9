/**
 * The settings a host gives as services (from the environment with their `layerConfig`, or as
 * values with their `layer`): who the service is, where links and the gateway point, session
 * lifetimes, staff, the keys for codes and sealed data, this node's id generator, and the GIF
 * proxy's customer-id key and cache lifetimes.
 */
import type { SessionsConfig, VerificationCodes, WebLinks } from "@veche/auth"
import type { GatewayConfig } from "@veche/gateway"
import type { GifsConfig } from "@veche/gifs"
import type { Staff } from "@veche/moderation"
import type { SecretBox, ServiceInfo, Snowflake } from "@veche/platform"
import type { GatewayUrl } from "@veche/rest"

export type Configuration =
  | ServiceInfo.ServiceInfo
  | GatewayUrl.GatewayUrl
  | GatewayConfig.GatewayConfig
  | SessionsConfig.SessionsConfig
  | Staff.StaffConfig
  | WebLinks.WebLinks
  | VerificationCodes.VerificationCodes
  | SecretBox.SecretBox
  | Snowflake.SnowflakeGenerator
  | GifsConfig.GifsConfig
