/** @veche/web: the web pages the API's letters link to, served beside the API by a host. */
export * as Page from "./Page.ts"
export * as SecurityHeaders from "./SecurityHeaders.ts"
export * as WebPageFiles from "./WebPageFiles.ts"
export * as WebPages from "./WebPages.ts"
export * as WebPagesConfig from "./WebPagesConfig.ts"
