/** What the account flows learn about the caller: the address (after trusted proxies) and the device. */
import type { GeoIp, Snowflake } from "@veche/platform"
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

/** The answer to a started phone check (registration, recovery, phone change). */
export const startedView = (started: {
  readonly verificationId: Snowflake.Snowflake
  readonly expiresIn: number
  readonly maskedPhone: string
  readonly channel: "sms" | "messenger" | "console"
}) => ({
  verification_id: started.verificationId,
  expires_in: started.expiresIn,
  phone: started.maskedPhone,
  channel: started.channel
})
