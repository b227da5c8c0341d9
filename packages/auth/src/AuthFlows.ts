/**
 * The account flows the REST routes call (registration, check state, login), over one shared
 * captcha gate, and the accounts domain's part of a user's personal data (registered in the host's
 * PersonalData registry). Hosts provide the stores and providers underneath.
 */
import { Layer } from "effect"
import * as AccountPersonalData from "./AccountPersonalData.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { CarrierChecks } from "./CarrierChecks.ts"
import { CodeChecks } from "./CodeChecks.ts"
import { EmailBinding } from "./EmailBinding.ts"
import { EmailConfirmation } from "./EmailConfirmation.ts"
import { Login } from "./Login.ts"
import { Mfa } from "./Mfa.ts"
import { PasswordCheck } from "./PasswordCheck.ts"
import { PhoneChange } from "./PhoneChange.ts"
import { PhoneChecks } from "./PhoneChecks.ts"
import { Recovery } from "./Recovery.ts"
import { Registration } from "./Registration.ts"

type Flows =
  | typeof Registration.layer
  | typeof PhoneChecks.layer
  | typeof Login.layer
  | typeof Recovery.layer
  | typeof EmailBinding.layer
  | typeof PhoneChange.layer
  | typeof AccountPersonalData.layer
type Shared =
  | typeof CaptchaGate.layer
  | typeof Mfa.layer
  | typeof EmailConfirmation.layer
  | typeof CarrierChecks.layer
  | typeof PasswordCheck.layer
  | typeof CodeChecks.layer
type SharedServices = CaptchaGate | Mfa | EmailConfirmation | CarrierChecks | PasswordCheck | CodeChecks

/** What the flows need from the host: what each needs, but the shared services they get here. */
export type Requirements = Exclude<Layer.Services<Flows> | Layer.Services<Shared>, SharedServices>

export const layer: Layer.Layer<
  Registration | PhoneChecks | Login | Recovery | EmailBinding | PhoneChange | SharedServices,
  never,
  Requirements
> = Layer.mergeAll(
  Registration.layer,
  PhoneChecks.layer,
  Login.layer,
  Recovery.layer,
  EmailBinding.layer,
  PhoneChange.layer,
  AccountPersonalData.layer
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(CaptchaGate.layer, EmailConfirmation.layer, CarrierChecks.layer).pipe(
      Layer.provideMerge(Mfa.layer),
      Layer.provideMerge(PasswordCheck.layer),
      Layer.provideMerge(CodeChecks.layer)
    )
  )
)
