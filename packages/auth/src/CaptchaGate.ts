/**
 * "Captcha after the first attempt from an address" (registration, login, recovery starts): the
 * first attempt per flow and address in the quota's window is free; after it a valid captcha token
 * is required. The counter store being down refuses rather than letting bots through. Addresses
 * count by group (an IPv6 /64, and its /48 with a larger allowance: `Quotas.ADDRESS_QUOTAS`).
 */
import { Captcha } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, Effect, Layer } from "effect"
import { CaptchaNeeded, TemporarilyUnavailable } from "./RegistrationErrors.ts"

export type Flow = "register" | "login" | "recover"

export class CaptchaGate extends Context.Service<
  CaptchaGate,
  {
    /**
     * `required`: a captcha is due whatever the address's free attempt says (login past the
     * account's failure threshold).
     */
    readonly check: (
      flow: Flow,
      token: string | undefined,
      address: string,
      options?: { readonly required?: boolean | undefined }
    ) => Effect.Effect<void, CaptchaNeeded | TemporarilyUnavailable>
  }
>()("@veche/auth/CaptchaGate") {
  static readonly layer: Layer.Layer<CaptchaGate, never, QuotaLimiter.QuotaLimiter | Captcha.Captcha> = Layer.effect(
    CaptchaGate,
    Effect.gen(function* () {
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const captcha = yield* Captcha.Captcha
      return CaptchaGate.of({
        check: Effect.fnUntraced(function* (
          flow: Flow,
          token: string | undefined,
          address: string,
          options?: { readonly required?: boolean | undefined }
        ) {
          // Used up by every attempt but the address's first: asked without a failure to build.
          const free = yield* quotas
            .tryConsume("captchaFreeAttempts", `${flow}@${address}`)
            .pipe(
              Effect.catchTag("QuotaUnavailable", () => Effect.fail(new TemporarilyUnavailable({ what: "counters" })))
            )
          if (free && options?.required !== true) return
          if (token === undefined || token === "") return yield* new CaptchaNeeded({ reason: "required" })
          yield* captcha.verify(token, address).pipe(
            Effect.catchTags({
              CaptchaInvalid: () => Effect.fail(new CaptchaNeeded({ reason: "invalid" })),
              CaptchaUnavailable: () => Effect.fail(new TemporarilyUnavailable({ what: "captcha" }))
            })
          )
        })
      })
    })
  )
}
