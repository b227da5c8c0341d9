/** @veche/test-host: the whole API in-process on memory layers, with a test clock and typed client. */
export * as TestHost from "./TestHost.ts"
