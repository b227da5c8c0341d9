/** @veche/node-server: the reference Node server, for operators (`veche-server`) and for embedding. */
export * as Database from "./Database.ts"
export * as NodeFlags from "./NodeFlags.ts"
export * as Server from "./Server.ts"
export * as ServerConfig from "./ServerConfig.ts"
