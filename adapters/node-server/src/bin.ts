#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=16384 node --max-semi-space-size=8 --heap-growing-percent=30 --no-allocation-site-pretenuring
/**
 * Starts the reference server: `pnpm start` (embedded PostgreSQL in ./.veche unless DATABASE_URL is
 * set). SIGINT/SIGTERM drain in-flight requests, stop the database and exit 0. The shebang's
 * environment and flags are NodeFlags.NODE_ENV and NodeFlags.NODE_FLAGS.
 *
 * The server is imported only after LibraryComments' hook is registered, libuv's threadpool is
 * sized (ThreadPool.ts) and V8's young generation is held small (YoungGeneration.ts; Launch.ts lets
 * it grow once the server listens): Node loads a module's whole static import graph before it runs
 * any of it, so a static import would load effect first.
 */
import * as LibraryComments from "./LibraryComments.ts"
import * as ThreadPool from "./ThreadPool.ts"
import * as YoungGeneration from "./YoungGeneration.ts"

YoungGeneration.hold()
ThreadPool.configure()
LibraryComments.register()
await import("./Launch.ts")
