/** Handlers of the Auth group (sessions part). */
import { EmailConfirmation, Login, Mfa, PhoneChecks, Recovery, Registration, Sessions } from "@veche/auth"
import { InvalidFormBody } from "@veche/errors"
import { GeoIp } from "@veche/platform"
import { DateTime, Effect, Redacted } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { requireUser } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"
import { refusing } from "./AuthRefusals.ts"
import { addressOf, clientOf, startedView } from "./Client.ts"
import * as MfaHandlers from "./MfaHandlers.ts"
import * as RecoveryHandlers from "./RecoveryHandlers.ts"
import { toWire } from "./TokenPairs.ts"

export const layer = HttpApiBuilder.group(RestApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions.Sessions
    const registration = yield* Registration.Registration
    const checks = yield* PhoneChecks.PhoneChecks
    const logins = yield* Login.Login
    const mfa = MfaHandlers.make(yield* Mfa.Mfa)
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
      .handle("logout", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          if (user.sessionId !== undefined) yield* sessions.end(user.sessionId)
        })
      )
      .handle("sessions", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          const live = yield* sessions.list(user.userId)
          return live.map((session) => ({
            id: session.id,
            current: session.id === user.sessionId,
            created_at: DateTime.formatIso(session.createdAt),
            last_used_at: DateTime.formatIso(session.lastUsedAt),
            client_info: {
              user_agent: session.client.userAgent,
              ip: session.client.address,
              country: session.client.country
            }
          }))
        })
      )
      .handle("endOtherSessions", () =>
        Effect.gen(function* () {
          const user = yield* requireUser
          if (user.sessionId === undefined) yield* sessions.endAll(user.userId)
          else yield* sessions.endOthers(user.userId, user.sessionId)
        })
      )
      .handle("mfaState", () => mfa.state())
      .handle("enableTotp", ({ payload }) => mfa.enableTotp(payload))
      .handle("mfaCodes", ({ payload }) => mfa.newBackupCodes(payload))
      .handle("disableTotp", ({ payload }) => mfa.disableTotp(payload))
      .handle("methods", () =>
        Effect.gen(function* () {
          // The answer depends on the caller's address: no cache may keep it for someone else.
          yield* HttpEffect.appendPreResponseHandler((_request, response) =>
            Effect.succeed(HttpServerResponse.setHeader(response, "cache-control", "no-store"))
          )
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
