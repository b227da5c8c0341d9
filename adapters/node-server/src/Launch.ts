/**
 * Runs the reference server until a signal: SIGINT/SIGTERM drain in-flight requests, stop the
 * database and exit 0. Imported by bin.ts once the loader's hooks are in place.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Effect, Exit, Layer } from "effect"
import * as Server from "./Server.ts"
import * as YoungGeneration from "./YoungGeneration.ts"

// Built means listening: from here on the young generation grows with the load (YoungGeneration.ts).
Layer.launch(Server.layer.pipe(Layer.tap(() => Effect.sync(YoungGeneration.release)))).pipe(
  NodeRuntime.runMain({
    // A signal is a normal stop, not a failure: exit 0 rather than runMain's default 130.
    teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
  })
)
