/**
 * The rate-limit middleware's tag: every API route may answer 429 (`RateLimited`), and clients
 * decode it. Who is counted and how is `@veche/rest`'s `RateLimitMiddleware`.
 */
import { RateLimited } from "@veche/errors"
import { HttpApiMiddleware } from "effect/http-api"

export class RateLimit extends HttpApiMiddleware.Service<RateLimit>()("@veche/api/RateLimit", {
  error: RateLimited
}) {}
