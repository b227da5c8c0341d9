/**
 * A request's Authorization header, read once: its scheme and token, and the token's digest
 * (`OpaqueSecrets.digestOf`, what the token stores look a token up by). The rate limiter (which
 * counters), the Authorization middleware (`KnownTokens`) and the token lookup all need the digest;
 * it is kept per request, so the header is parsed and hashed once whichever of them asks first.
 * Nothing is kept across requests: every request's token is still looked up.
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

const ofRequest = new WeakMap<HttpServerRequest.HttpServerRequest, Credentials>()

/** The request's credentials, parsed and digested on the first call for it. */
export const of = (request: HttpServerRequest.HttpServerRequest): Credentials => {
  let credentials = ofRequest.get(request)
  if (credentials === undefined) {
    credentials = parse(request.headers.authorization)
    ofRequest.set(request, credentials)
  }
  return credentials
}
