/**
 * The account flows the REST routes call (registration, check state, login), over one shared
 * captcha gate. Hosts provide the stores and providers underneath.
 */
import { Layer } from "effect"
import { CaptchaGate } from "./CaptchaGate.ts"
import { Login } from "./Login.ts"
import { PhoneChecks } from "./PhoneChecks.ts"
import { Registration } from "./Registration.ts"

export const layer = Layer.mergeAll(Registration.layer, PhoneChecks.layer, Login.layer).pipe(
  Layer.provideMerge(CaptchaGate.layer)
)
