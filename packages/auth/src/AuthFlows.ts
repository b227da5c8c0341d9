/**
 * The account flows the REST routes call (registration, check state, login), over one shared
 * captcha gate. Hosts provide the stores and providers underneath.
 */
import type { Captcha, SmsSender, Snowflake } from "@veche/platform"
import type { QuotaLimiter } from "@veche/ratelimit"
import type { UsersRepo } from "@veche/users"
import { Layer } from "effect"
import type { AccountsRepo } from "./AccountsRepo.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { Login } from "./Login.ts"
import type { PasswordHasher } from "./PasswordHasher.ts"
import { PhoneChecks } from "./PhoneChecks.ts"
import { Registration } from "./Registration.ts"
import type { Sessions } from "./Sessions.ts"
import type { VerificationCodes } from "./VerificationCodes.ts"
import type { VerificationsRepo } from "./VerificationsRepo.ts"

/** What the flows need from the host. */
export type Requirements =
  | VerificationsRepo
  | VerificationCodes
  | AccountsRepo
  | UsersRepo.UsersRepo
  | PasswordHasher
  | Sessions
  | QuotaLimiter.QuotaLimiter
  | Captcha.Captcha
  | SmsSender.SmsSender
  | Snowflake.SnowflakeGenerator

export const layer: Layer.Layer<Registration | PhoneChecks | Login | CaptchaGate, never, Requirements> = Layer.mergeAll(
  Registration.layer,
  PhoneChecks.layer,
  Login.layer
).pipe(Layer.provideMerge(CaptchaGate.layer))
