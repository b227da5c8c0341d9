/**
 * The account flows the REST routes call (registration, check state, login), over one shared
 * captcha gate. Hosts provide the stores and providers underneath.
 */
import { Layer } from "effect"
import { CaptchaGate } from "./CaptchaGate.ts"
import { Login } from "./Login.ts"
import { Mfa } from "./Mfa.ts"
import { PhoneChecks } from "./PhoneChecks.ts"
import { Registration } from "./Registration.ts"

type Flows = typeof Registration.layer | typeof PhoneChecks.layer | typeof Login.layer
type Shared = typeof CaptchaGate.layer | typeof Mfa.layer

/** What the flows need from the host: what each needs, but the gate and 2FA they get here. */
export type Requirements = Exclude<Layer.Services<Flows>, CaptchaGate | Mfa> | Layer.Services<Shared>

export const layer: Layer.Layer<Registration | PhoneChecks | Login | CaptchaGate | Mfa, never, Requirements> =
  Layer.mergeAll(Registration.layer, PhoneChecks.layer, Login.layer).pipe(
    Layer.provideMerge(Layer.mergeAll(CaptchaGate.layer, Mfa.layer))
  )
