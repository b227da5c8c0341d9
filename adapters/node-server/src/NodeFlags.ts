/**
 * The Node flags the reference server runs with (`pnpm start`, the `veche-server` bin's shebang and
 * the bench use these; test/NodeFlags.test.ts holds them in step). V8 sizes the young generation
 * from the machine's memory: 64 MB semi-spaces on a 24 GiB machine, resident whether used or not.
 * With 8 MB the server measured the same throughput and ~100 MB less resident memory under load.
 */
export const NODE_FLAGS: ReadonlyArray<string> = ["--max-semi-space-size=8"]
