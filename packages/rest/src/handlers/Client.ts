/** What the account flows learn about the caller: the address (after trusted proxies) and the device. */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

export const addressOf = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/** What the session list shows about the device that started a session. */
export const clientOf = (request: HttpServerRequest.HttpServerRequest) => ({
  userAgent: request.headers["user-agent"]?.slice(0, 512) ?? null,
  address: Option.getOrNull(request.remoteAddress),
  country: null
})
