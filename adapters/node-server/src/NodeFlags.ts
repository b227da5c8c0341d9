/**
 * How the reference server is run: the Node flags (`pnpm start`, the `veche-server` bin's shebang and
 * the bench use these; test/NodeFlags.test.ts holds them in step) and, in this workspace, the built
 * entry point.
 *
 * - V8 sizes the young generation from the machine's memory: 64 MB semi-spaces on a 24 GiB machine,
 *   resident whether used or not. With 8 MB the server measured the same throughput and ~100 MB less
 *   resident memory under load.
 * - V8 lets the old generation grow to up to 4× what the last full collection left before it
 *   collects again. Under refresh load the server's live heap stayed at ~50 MB while garbage promoted
 *   from the young generation took it to 250–300 MB resident; growing by at most 30 % it stays at
 *   ~170 MB, for 2 % fewer refreshes a second (and no change on /version or /users/@me, measured).
 * - V8 allocates straight into the old generation the objects of an allocation site whose objects
 *   it saw survive young collections (allocation-site pretenuring). A server's request objects live
 *   as long as their request, and under 50 requests in flight many survive a scavenge, so sites the
 *   request path allocates from can be pretenured: their garbage then waits for a full collection.
 *   Without it, side by side on fresh processes: routed `/version` 33.8 → 31.9 µs a request (16
 *   processes each, interleaved; lower in every group of four), `/users/@me` 52.4 → 50.2 and
 *   55.3 → 49.4 µs (6 of 6 both ways) with its loaded RSS lower (171 → 144, 161 → 152 MB). And of
 *   52 fresh processes without it 5 ran at twice the CPU a request for their life (a full collection
 *   every 150–250 ms instead of every few seconds); of 40 with it, none (suggestive, not proven:
 *   p ≈ 0.05 were the two alike).
 */
export const NODE_FLAGS: ReadonlyArray<string> = [
  "--max-semi-space-size=8",
  "--heap-growing-percent=30",
  "--no-allocation-site-pretenuring"
]

/**
 * The environment the server's Node runs with (`pnpm start`, the bin's shebang and the bench set it;
 * test/NodeFlags.test.ts holds them in step).
 *
 * - `MALLOC_MMAP_THRESHOLD_=16384`: glibc serves blocks of 16 KB and more with their own mappings,
 *   given back to the system when freed. By default the threshold starts at 128 KB and rises to the
 *   size of the largest mapped block freed (up to 32 MB), after which big blocks come from the
 *   heaps and stay there when freed: V8's compiler and GC threads take their working memory that way
 *   during the start, and the idle server kept ≈8 MB free in its thread arenas (`malloc_stats`: 17.6
 *   MB taken, 9.3 MB in use). With the fixed threshold it idles ≈5 MB smaller and ≈10–25 MB smaller
 *   under load. CPU per request side by side (both orientations, netted for the bench's bias to the
 *   second server): `/version` −0.1 and +1.1 µs, `/users/@me` +5 and +7 µs (main thread +0 and +3),
 *   within this busy machine's noise; under `@me` load the server with it makes 16 `mmap` calls in
 *   18 s (`strace -c`), so it adds no system call per request. `MALLOC_ARENA_MAX=1` saved as much idle
 *   but grew the loaded server by 10–20 MB.
 *   Other C libraries ignore it.
 */
export const NODE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "16384" }

/** NODE_ENV as `NAME=value` words, for a command line (`env`, a shebang). */
export const NODE_ENV_WORDS: ReadonlyArray<string> = Object.entries(NODE_ENV).map(([name, value]) => `${name}=${value}`)

/**
 * In the workspace, `pnpm start` and the bench run the JavaScript that `pnpm build:js` writes (what
 * the published packages run), not the TypeScript sources: Node's type stripping keeps its
 * compiler in memory, 35 MB of an idle server's 196 (measured). The `veche-dist` export condition
 * resolves every workspace package to its built `dist/index.js`.
 */
export const WORKSPACE_FLAGS: ReadonlyArray<string> = [...NODE_FLAGS, "--conditions=veche-dist"]

/** The built entry point, relative to the workspace root. */
export const WORKSPACE_BIN = "adapters/node-server/dist/bin.js"
