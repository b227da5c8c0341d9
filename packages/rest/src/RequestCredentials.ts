/**
 * A request's Authorization header, read once: its scheme and token, and the token's digest
 * (`OpaqueSecrets.digestOf`, what the token stores look a token up by). The rate limiter (which
 * counters), the Authorization middleware (`KnownTokens`) and the token lookup all need the digest;
 * the last header's result is kept, so a request's header is parsed and hashed at most once,
 * whichever of them asks first. Only the parsing is spared: every request's token is still looked
 * up, so a revoked token fails on its next request.
 */
import * as OpaqueSecrets from "@veche/platform/OpaqueSecrets"
import type { HttpServerRequest } from "effect/http"
import type { Scheme } from "./Authenticator.ts"

export interface Presented {
  readonly scheme: Scheme
  readonly token: string
  readonly digest: string
  /** The `KnownTokens` key: the scheme and the digest (a token is only ever valid under one scheme). */
  readonly known: string
}

export type Credentials = Presented | "missing" | "malformed"

// Tokens are opaque base64url strings with a type prefix; anything else cannot be ours.
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{1,512}$/

/** The header's scheme and token, digested; or why there is none to look up. */
export const parse = (header: string | undefined): Credentials => {
  if (header === undefined || header.trim() === "") return "missing"
  const match = /^(\S+) +(\S+)\s*$/.exec(header)
  if (match === null) return "malformed"
  const scheme = match[1]?.toLowerCase()
  const token = match[2] ?? ""
  if (!TOKEN_SHAPE.test(token)) return "malformed"
  if (scheme !== "bearer" && scheme !== "bot") return "malformed"
  const digest = OpaqueSecrets.digestOf(token)
  return scheme === "bearer"
    ? { scheme: "Bearer", token, digest, known: `u${digest}` }
    : { scheme: "Bot", token, digest, known: `b${digest}` }
}

// The last header's credentials: the rate limiter and the Authorization middleware of one request
// read the same header one after the other, and so do a client's consecutive requests. A one-entry
// memo, because a WeakMap keyed by the request cost more than the two hashes it saved (an insert
// per request, and its entries are ephemerons the collector must trace: 1.9 µs against 0.1).
let lastHeader: string | undefined
let lastCredentials: Credentials = "missing"

/** The request's credentials: parsed and digested unless the last request's header was the same. */
export const of = (request: HttpServerRequest.HttpServerRequest): Credentials => {
  const header = request.headers.authorization
  if (header !== lastHeader) {
    lastCredentials = parse(header)
    lastHeader = header
  }
  return lastCredentials
}
