import { describe, expect, it } from "@effect/vitest"
import { Totp, TotpCodes } from "@veche/auth"
import { Effect } from "effect"
import * as OtplibTotpCodes from "../src/OtplibTotpCodes.ts"

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", codes cut to 6 digits.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
const { codeAt, matchStep } = OtplibTotpCodes

describe("OtplibTotpCodes", () => {
  it("computes the RFC 6238 test vectors", () => {
    expect(codeAt(RFC_SECRET, 59_000)).toBe("287082")
    expect(codeAt(RFC_SECRET, 1_111_111_109_000)).toBe("081804")
    expect(codeAt(RFC_SECRET, 1_234_567_890_000)).toBe("005924")
  })

  it("matches the current step and one on either side, and nothing at or before afterStep", () => {
    const now = 1_234_567_890_000
    const step = Totp.stepAt(now)
    expect(matchStep(RFC_SECRET, "005924", now)).toBe(step)
    const previous = codeAt(RFC_SECRET, now - 30_000)
    const next = codeAt(RFC_SECRET, now + 30_000)
    const tooOld = codeAt(RFC_SECRET, now - 60_000)
    expect(matchStep(RFC_SECRET, previous, now)).toBe(step - 1)
    expect(matchStep(RFC_SECRET, next, now)).toBe(step + 1)
    expect(matchStep(RFC_SECRET, tooOld, now)).toBeUndefined()
    expect(matchStep(RFC_SECRET, "005924", now, step)).toBeUndefined()
    expect(matchStep(RFC_SECRET, next, now, step)).toBe(step + 1)
  })

  it("refuses malformed codes without throwing", () => {
    for (const code of ["", "12345", "1234567", "12a456", " 005924"]) {
      expect(matchStep(RFC_SECRET, code, 1_234_567_890_000)).toBeUndefined()
    }
  })

  it("accepts every secret length auth accepts: 16 characters (10 bytes) to 128 (80 bytes)", () => {
    // otplib's defaults refuse under 16 and over 64 bytes; the guardrails are widened to auth's range
    for (const secret of ["GEZDGNBVGY3TQOJQ", "A".repeat(Totp.MAX_SECRET_CHARS)]) {
      const code = codeAt(secret, 59_000)
      expect(matchStep(secret, code, 59_000)).toBe(1)
    }
  })

  it.effect("serves the same through the TotpCodes layer", () =>
    Effect.gen(function* () {
      const codes = yield* TotpCodes.TotpCodes
      const code = yield* codes.codeAt(RFC_SECRET, 59_000)
      expect(code).toBe("287082")
      expect(yield* codes.matchStep(RFC_SECRET, code, 59_000)).toBe(1)
      expect(yield* codes.matchStep(RFC_SECRET, code, 59_000, 1)).toBeUndefined()
    }).pipe(Effect.provide(OtplibTotpCodes.layer))
  )
})
