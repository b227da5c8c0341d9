/**
 * Which registration methods a client address is offered, and the rule behind it: no e-mail
 * registration from Russia, refused before anything else (no captcha, no quota, no letter). Every
 * neighbour is a mock that dies when used, so a refusal that touched one would fail loudly.
 */
import { describe, expect, it } from "@effect/vitest"
import { GeoIp, SmsSender, Snowflake } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { PublicUsers } from "@veche/users"
import { Effect, Layer } from "effect"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { CaptchaGate } from "../src/CaptchaGate.ts"
import { CarrierChecks } from "../src/CarrierChecks.ts"
import { CodeChecks } from "../src/CodeChecks.ts"
import { EmailConfirmation } from "../src/EmailConfirmation.ts"
import { PasswordHasher } from "../src/PasswordHasher.ts"
import { Registration } from "../src/Registration.ts"
import { CaptchaNeeded } from "../src/RegistrationErrors.ts"
import { Sessions } from "../src/Sessions.ts"
import { VerificationCodes } from "../src/VerificationCodes.ts"
import { VerificationsRepo } from "../src/VerificationsRepo.ts"

const RUSSIAN = "77.88.55.242"
const ABROAD = "8.8.8.8"

const registration = Registration.layer.pipe(
  Layer.provide(
    Layer.mergeAll(
      GeoIp.GeoIp.layerTest({ [RUSSIAN]: "RU", [ABROAD]: "US" }),
      // The first step of an e-mail registration outside Russia: the captcha asks for a token.
      Layer.mock(CaptchaGate)({ check: () => Effect.fail(new CaptchaNeeded({ reason: "required" })) }),
      Layer.mock(CodeChecks)({}),
      Layer.mock(VerificationsRepo)({}),
      Layer.mock(VerificationCodes)({}),
      Layer.mock(AccountsRepo)({}),
      Layer.mock(PublicUsers.PublicUsers)({}),
      Layer.mock(PasswordHasher)({}),
      Layer.mock(Sessions)({}),
      Layer.mock(QuotaLimiter.QuotaLimiter)({}),
      Layer.mock(SmsSender.SmsSender)({ channel: "sms" }),
      Layer.mock(EmailConfirmation)({}),
      Layer.mock(CarrierChecks)({ enabled: false }),
      Layer.mock(Snowflake.SnowflakeGenerator)({ workerId: 0 })
    )
  )
)

const byEmail = (address: string) =>
  Effect.flatMap(Effect.service(Registration), (flows) =>
    flows.startByEmail({ email: "ivan@example.ru", captchaToken: undefined, address })
  )

describe("Registration.methods", () => {
  it.effect("offers e-mail everywhere but Russia, and names Russia when it narrows the offer", () =>
    Effect.gen(function* () {
      const flows = yield* Registration
      expect(yield* flows.methods(RUSSIAN)).toEqual({ phone: true, email: false, country: "RU" })
      expect(yield* flows.methods(ABROAD)).toEqual({ phone: true, email: true, country: null })
      expect(yield* flows.methods("198.51.100.1")).toEqual({ phone: true, email: true, country: null })
    }).pipe(Effect.provide(registration))
  )

  it.effect("refuses e-mail registration from Russia before the captcha; elsewhere the flow goes on", () =>
    Effect.gen(function* () {
      expect((yield* Effect.flip(byEmail(RUSSIAN)))._tag).toBe("EmailRegistrationNotOffered")
      expect((yield* Effect.flip(byEmail(ABROAD)))._tag).toBe("CaptchaNeeded")
      expect((yield* Effect.flip(byEmail("unknown")))._tag).toBe("CaptchaNeeded")
    }).pipe(Effect.provide(registration))
  )
})
