/**
 * The account flows the REST routes call (registration, check state, login), over one shared
 * captcha gate. Hosts provide the stores and providers underneath.
 */
import { Layer } from "effect"
import { CaptchaGate } from "./CaptchaGate.ts"
import { CarrierChecks } from "./CarrierChecks.ts"
import { EmailConfirmation } from "./EmailConfirmation.ts"
import { Login } from "./Login.ts"
import { Mfa } from "./Mfa.ts"
import { PhoneChecks } from "./PhoneChecks.ts"
import { Recovery } from "./Recovery.ts"
import { Registration } from "./Registration.ts"

type Flows = typeof Registration.layer | typeof PhoneChecks.layer | typeof Login.layer | typeof Recovery.layer
type Shared = typeof CaptchaGate.layer | typeof Mfa.layer | typeof EmailConfirmation.layer | typeof CarrierChecks.layer
type SharedServices = CaptchaGate | Mfa | EmailConfirmation | CarrierChecks

/** What the flows need from the host: what each needs, but the shared services they get here. */
export type Requirements = Exclude<Layer.Services<Flows>, SharedServices> | Layer.Services<Shared>

export const layer: Layer.Layer<Registration | PhoneChecks | Login | Recovery | SharedServices, never, Requirements> =
  Layer.mergeAll(Registration.layer, PhoneChecks.layer, Login.layer, Recovery.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(CaptchaGate.layer, Mfa.layer, EmailConfirmation.layer, CarrierChecks.layer))
  )
