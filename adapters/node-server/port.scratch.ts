import { Effect, Cause } from "effect"
const { EmbeddedPostgres } = await import(process.env.MOD!)
const exit = await Effect.runPromiseExit(Effect.void.pipe(Effect.provide(EmbeddedPostgres.layer({ dataDir: process.argv[2]!, port: Number(process.argv[3]) }))))
if (exit._tag === "Failure") console.log(Cause.pretty(exit.cause).split("\n    at ")[0])
const both = await Effect.runPromiseExit(Effect.void.pipe(Effect.provide(EmbeddedPostgres.layer({ dataDir: process.argv[2]! })), Effect.provide(EmbeddedPostgres.layer({ dataDir: process.argv[2]! }))))
if (both._tag === "Failure") console.log(Cause.pretty(both.cause).split("\n    at ")[0])
