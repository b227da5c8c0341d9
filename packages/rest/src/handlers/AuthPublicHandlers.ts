/** Handlers of the public Auth group: registration, login, token refresh, verification state, recovery. */
import { RestApi } from "@veche/api"
import { EmailConfirmation, Login, PhoneChecks, Recovery, Registration, Sessions } from "@veche/auth"
import { InvalidFormBody } from "@veche/errors"
import { GeoIp } from "@veche/platform"
import { Effect, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { refusing } from "./AuthRefusals.ts"
import { addressOf, clientOf, startedView } from "./Client.ts"
import type * as GroupLayer from "./GroupLayer.ts"
import * as RecoveryHandlers from "./RecoveryHandlers.ts"
import { toWire } from "./TokenPairs.ts"

export const layer: GroupLayer.PublicNoStore<
  "authPublic",
  | Sessions.Sessions
  | Login.Login
  | GeoIp.GeoIp
  | PhoneChecks.PhoneChecks
  | Registration.Registration
  | Recovery.Recovery
  | EmailConfirmation.EmailConfirmation
> = HttpApiBuilder.group(RestApi.RestApi, "authPublic", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    const registration = yield* Registration.Registration
    const checks = yield* PhoneChecks.PhoneChecks
    const logins = yield* Login.Login
    const geo = yield* GeoIp.GeoIp
    const recovery = RecoveryHandlers.make(yield* Recovery.Recovery, yield* EmailConfirmation.EmailConfirmation, geo)
    const checkAnswer = (state: PhoneChecks.CheckState) => ({
      status: state.status,
      code_length: state.codeLength,
      channel: state.channel
    })
    return handlers
      .handle("login", ({ payload }) =>
        Effect.gen(function* () {
          const login = payload.login ?? payload.phone ?? payload.email
          if (login === undefined) {
            return yield* InvalidFormBody.field(["login"], "BASE_TYPE_REQUIRED", "This field is required")
          }
          const request = yield* HttpServerRequest.HttpServerRequest
          const pair = yield* logins.login(
            {
              login,
              password: Redacted.make(payload.password),
              code: payload.code,
              captchaToken: payload.captcha_token,
              address: addressOf(request)
            },
            yield* clientOf(request, geo)
          )
          return toWire(pair)
        }).pipe(refusing)
      )
      .handle("verificationState", ({ params, query }) =>
        checks.state(params.verification_id, query.purpose ?? "register").pipe(Effect.map(checkAnswer), refusing)
      )
      .handle("verificationSms", ({ params, query }) =>
        checks.switchToSms(params.verification_id, query.purpose ?? "register").pipe(Effect.map(checkAnswer), refusing)
      )
      .handle("registerPhone", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* registration.startByPhone({
            phone: payload.phone,
            captchaToken: payload.captcha_token,
            address: addressOf(request)
          })
          return startedView(started)
        }).pipe(refusing)
      )
      .handle("registerVerify", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const pair = yield* registration.complete(
            {
              verificationId: payload.verification_id,
              code: payload.code,
              username: payload.username,
              displayName: payload.display_name ?? null,
              password: Redacted.make(payload.password),
              dateOfBirth: payload.date_of_birth,
              email: payload.email
            },
            yield* clientOf(request, geo)
          )
          return toWire(pair)
        }).pipe(refusing)
      )
      .handle("refresh", ({ payload }) =>
        sessions.refresh(Redacted.make(payload.refresh_token)).pipe(Effect.map(toWire), refusing)
      )
      .handle("methods", () =>
        Effect.gen(function* () {
          // The answer depends on the caller's address: the route declares NoStore.
          const offered = yield* registration.methods(addressOf(yield* HttpServerRequest.HttpServerRequest))
          return { phone: offered.phone, email: offered.email, country: offered.country ?? "" }
        })
      )
      .handle("registerEmail", ({ payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* registration.startByEmail({
            email: payload.email.trim(),
            captchaToken: payload.captcha_token,
            address: addressOf(request)
          })
          return {
            verification_id: started.verificationId,
            expires_in: started.expiresIn,
            email: started.maskedEmail,
            channel: "email" as const,
            code_length: 6
          }
        }).pipe(refusing)
      )
      .handle("recoverPhone", ({ payload }) => recovery.recoverPhone(payload))
      .handle("recoverVerify", ({ payload }) => recovery.recoverVerify(payload))
      .handle("emailVerify", ({ payload }) => recovery.emailVerify(payload))
      .handle("recoverEmail", ({ payload }) => recovery.recoverEmail(payload))
      .handle("recoverEmailVerify", ({ payload }) => recovery.recoverEmailVerify(payload))
  })
)
