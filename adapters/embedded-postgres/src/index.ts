/** @veche/embedded-postgres: a real PostgreSQL in a data folder, for hosts with no DATABASE_URL. */
export * as DefaultDataDir from "./DefaultDataDir.ts"
export * as EmbeddedPostgres from "./EmbeddedPostgres.ts"
