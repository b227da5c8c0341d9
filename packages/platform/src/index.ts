/**
 * @veche/platform: building blocks every domain shares (ids, service identity) and, as they arrive,
 * the cross-domain provider ports with their dependency-free adapters.
 */
export * as ServiceInfo from "./ServiceInfo.ts"
export * as Snowflake from "./Snowflake.ts"
