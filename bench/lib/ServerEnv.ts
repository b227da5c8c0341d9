/**
 * The environment every bench script starts the reference server with: production settings on
 * loopback, fresh random keys (nothing a run seals or sends need outlive it), its own data folder,
 * the bench's database schema, no Redis, the access log on, and `NodeFlags.NODE_ENV` as
 * `pnpm start` sets it. A script adds or overrides what its scenario needs after it.
 */
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import * as NodeFlags from "../../adapters/node-server/src/NodeFlags.ts"
import type * as Database from "./Database.ts"

export const referenceServer = (options: {
  readonly port: number
  /** The server's name in the run: its data folder under `dataDir`, its keys' id. */
  readonly name: string
  readonly dataDir: string
  readonly database: Database.Database
}): Record<string, string> => ({
  PORT: String(options.port),
  HOST: "127.0.0.1",
  SERVICE_ENV: "prod",
  // Required outside dev.
  SERVICE_CODE_SECRET: randomBytes(32).toString("hex"),
  SERVICE_SECRET_KEYS: `${options.name}:${randomBytes(32).toString("base64")}`,
  SERVICE_WEB_URL: "http://localhost:3000",
  SERVICE_ACCESS_LOG: "true",
  SERVICE_DATA_DIR: path.join(options.dataDir, options.name),
  DATABASE_URL: options.database.url,
  DATABASE_SCHEMA: options.database.schema,
  REDIS_URL: "",
  ...NodeFlags.NODE_ENV
})
