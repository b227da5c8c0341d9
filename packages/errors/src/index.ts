/**
 * @veche/errors: the API's error catalogue and its wire encoders.
 *
 * Modules of functions and data are exported as namespaces (`ErrorCatalogue`, `ApiError`,
 * `FormErrors`, `FormCode`, `ErrorBody`). The error classes themselves are exported at the top level,
 * because handlers and domains name them one by one: `import { UnknownGuild, RateLimited } from
 * "@veche/errors"`. Importing the package also declares the `formCode` Schema annotation.
 */
export * as ApiError from "./ApiError.ts"
export * from "./ApiErrors.ts"
export * as ErrorBody from "./ErrorBody.ts"
export * as ErrorCatalogue from "./ErrorCatalogue.ts"
export * as FormCode from "./FormCode.ts"
export * as FormErrors from "./FormErrors.ts"
export { RateLimited } from "./RateLimited.ts"
export { unstacked } from "./Unstacked.ts"
