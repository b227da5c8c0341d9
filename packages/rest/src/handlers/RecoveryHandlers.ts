/** The recovery and e-mail link routes of the Auth group. */
import type { EmailConfirmation, Phone, Recovery } from "@veche/auth"
import type { GeoIp, Snowflake } from "@veche/platform"
import { Effect, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { refusing } from "./AuthRefusals.ts"
import { addressOf, clientOf, startedView } from "./Client.ts"
import { toWire } from "./TokenPairs.ts"

export const make = (
  recovery: Recovery.Recovery["Service"],
  confirmation: EmailConfirmation.EmailConfirmation["Service"],
  geo: GeoIp.GeoIp["Service"]
) => ({
  recoverPhone: (payload: { readonly phone: Phone.PhoneNumber; readonly captcha_token?: string }) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const started = yield* recovery.startByPhone({
        phone: payload.phone,
        captchaToken: payload.captcha_token,
        address: addressOf(request)
      })
      return startedView(started)
    }).pipe(refusing),

  recoverVerify: (payload: {
    readonly verification_id: Snowflake.Snowflake
    readonly code: string
    readonly new_password: string
    readonly mfa_code?: string
  }) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pair = yield* recovery.completeByPhone(
        {
          verificationId: payload.verification_id,
          code: payload.code,
          newPassword: Redacted.make(payload.new_password),
          mfaCode: payload.mfa_code
        },
        yield* clientOf(request, geo)
      )
      return toWire(pair)
    }).pipe(refusing),

  emailVerify: (payload: { readonly token: string }) =>
    confirmation.confirm(Redacted.make(payload.token)).pipe(
      Effect.map((email) => ({ email })),
      refusing
    ),

  recoverEmail: (payload: { readonly email: string; readonly captcha_token?: string }) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      yield* recovery.startByEmail({
        email: payload.email.trim(),
        captchaToken: payload.captcha_token,
        address: addressOf(request)
      })
      return { ok: true }
    }).pipe(refusing),

  recoverEmailVerify: (payload: { readonly token: string; readonly new_password: string; readonly code?: string }) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const pair = yield* recovery.completeByEmail(
        {
          token: Redacted.make(payload.token),
          newPassword: Redacted.make(payload.new_password),
          mfaCode: payload.code
        },
        yield* clientOf(request, geo)
      )
      return toWire(pair)
    }).pipe(refusing)
})
