import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
const { EmbeddedPostgres } = await import(process.env.MOD!)
const dataDir = process.argv[2]!
NodeRuntime.runMain(Layer.launch(EmbeddedPostgres.layer({ dataDir })))
