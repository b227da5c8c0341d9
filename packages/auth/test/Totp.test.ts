import { describe, expect, it } from "@effect/vitest"
import * as BackupCodes from "../src/BackupCodes.ts"
import * as Totp from "../src/Totp.ts"

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", codes cut to 6 digits.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

describe("Totp", () => {
  it("computes the RFC 6238 test vectors", () => {
    expect(Totp.codeAt(RFC_SECRET, 59_000)).toBe("287082")
    expect(Totp.codeAt(RFC_SECRET, 1_111_111_109_000)).toBe("081804")
    expect(Totp.codeAt(RFC_SECRET, 1_234_567_890_000)).toBe("005924")
  })

  it("matches the current step and one on either side, and nothing at or before afterStep", () => {
    const now = 1_234_567_890_000
    const step = Totp.stepAt(now)
    expect(Totp.matchStep(RFC_SECRET, "005924", now)).toBe(step)
    const previous = Totp.codeAt(RFC_SECRET, now - 30_000)
    const next = Totp.codeAt(RFC_SECRET, now + 30_000)
    const tooOld = Totp.codeAt(RFC_SECRET, now - 60_000)
    expect(Totp.matchStep(RFC_SECRET, previous, now)).toBe(step - 1)
    expect(Totp.matchStep(RFC_SECRET, next, now)).toBe(step + 1)
    expect(Totp.matchStep(RFC_SECRET, tooOld, now)).toBeUndefined()
    expect(Totp.matchStep(RFC_SECRET, "005924", now, step)).toBeUndefined()
    expect(Totp.matchStep(RFC_SECRET, next, now, step)).toBe(step + 1)
  })

  it("refuses malformed codes without throwing", () => {
    for (const code of ["", "12345", "1234567", "12a456", " 005924"]) {
      expect(Totp.matchStep(RFC_SECRET, code, 1_234_567_890_000)).toBeUndefined()
    }
  })

  it("normalises secrets: spaces, padding and case; base32 of 16 to 128 characters only", () => {
    expect(Totp.normaliseSecret("gezd gnbv gy3t qojq")).toBe("GEZDGNBVGY3TQOJQ")
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJQ====")).toBe("GEZDGNBVGY3TQOJQ")
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJ")).toBeUndefined()
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJ1")).toBeUndefined()
    expect(Totp.normaliseSecret("A".repeat(129))).toBeUndefined()
    // a 16-character (10-byte) secret works with otplib once its minimum is lowered
    const code = Totp.codeAt("GEZDGNBVGY3TQOJQ", 59_000)
    expect(Totp.matchStep("GEZDGNBVGY3TQOJQ", code, 59_000)).toBe(1)
  })
})

describe("BackupCodes", () => {
  it("makes 10 distinct codes of the shape xxxxxxxx-xxxx", () => {
    const set = BackupCodes.generateSet()
    expect(set).toHaveLength(10)
    expect(new Set(set).size).toBe(10)
    for (const code of set) expect(code).toMatch(/^[a-z0-9]{8}-[a-z0-9]{4}$/)
  })

  it("hashes with a salt and matches the normalised code only", () => {
    const code = "abcd1234-wxyz"
    const normalised = BackupCodes.normalise(code) ?? ""
    const stored = BackupCodes.hash(normalised)
    expect(stored).not.toContain("abcd")
    expect(BackupCodes.hash(normalised)).not.toBe(stored)
    expect(BackupCodes.matches(stored, BackupCodes.normalise(" ABCD1234 WXYZ ") ?? "")).toBe(true)
    expect(BackupCodes.matches(stored, "abcd1234wxya")).toBe(false)
    expect(BackupCodes.matches("garbage", normalised)).toBe(false)
    expect(BackupCodes.normalise("123456")).toBeUndefined()
  })
})
