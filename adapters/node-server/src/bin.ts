#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=16384 node --max-semi-space-size=8 --heap-growing-percent=30
/**
 * Starts the reference server: `pnpm start` (embedded PostgreSQL in ./.veche unless DATABASE_URL is
 * set). SIGINT/SIGTERM drain in-flight requests, stop the database and exit 0. The shebang's
 * environment and flags are NodeFlags.NODE_ENV and NodeFlags.NODE_FLAGS.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Cause, Exit, Layer } from "effect"
import * as Server from "./Server.ts"

Layer.launch(Server.layer).pipe(
  NodeRuntime.runMain({
    // A signal is a normal stop, not a failure: exit 0 rather than runMain's default 130.
    teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
  })
)
