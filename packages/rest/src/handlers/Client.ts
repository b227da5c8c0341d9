/** What the account flows learn about the caller: the address (after trusted proxies) and the device. */
import type { GeoIp } from "@veche/platform"
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"

export const addressOf = (request: HttpServerRequest.HttpServerRequest): string =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/** What the session list shows about the device that started a session, its country included. */
export const clientOf = (request: HttpServerRequest.HttpServerRequest, geo: GeoIp.GeoIp["Service"]) =>
  Effect.gen(function* () {
    const address = Option.getOrNull(request.remoteAddress)
    const country = address === null ? Option.none() : yield* geo.country(address)
    return {
      userAgent: request.headers["user-agent"]?.slice(0, 512) ?? null,
      address,
      country: Option.getOrNull(country)
    }
  })
