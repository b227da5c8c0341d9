/**
 * The TOTP port: computing and matching app codes (RFC 6238: SHA-1, 6 digits, 30 s steps, see
 * `Totp`). The library is the host's choice (`OtplibTotpCodes` in `@veche/otplib`), so this
 * package installs none.
 *
 * Rules every implementation keeps:
 * - Secrets are `Totp.normaliseSecret`'s output: base32, `Totp.MIN_SECRET_BYTES` to
 *   `Totp.MAX_SECRET_BYTES` bytes; all of that range is accepted (never a throw, which is a 500).
 * - `matchStep` answers nothing for a code that is not `Totp.isCodeShape`.
 * - The comparison of codes takes constant time.
 */
import { Context, type Effect } from "effect"

export class TotpCodes extends Context.Service<
  TotpCodes,
  {
    /** The code an app shows at this instant (for tests and the dev tooling). */
    readonly codeAt: (secret: string, nowMs: number) => Effect.Effect<string>
    /**
     * The time step a code belongs to, if it is right for this secret now (current step ±1) and
     * later than `afterStep` (the last step the user has used).
     */
    readonly matchStep: (
      secret: string,
      code: string,
      nowMs: number,
      afterStep?: number | undefined
    ) => Effect.Effect<number | undefined>
  }
>()("@veche/auth/TotpCodes") {}
