import { describe, expect, it } from "@effect/vitest"
import * as BackupCodes from "../src/BackupCodes.ts"
import * as Totp from "../src/Totp.ts"

describe("Totp", () => {
  it("normalises secrets: spaces, padding and case; base32 of 16 to 128 characters only", () => {
    expect(Totp.normaliseSecret("gezd gnbv gy3t qojq")).toBe("GEZDGNBVGY3TQOJQ")
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJQ====")).toBe("GEZDGNBVGY3TQOJQ")
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJ")).toBeUndefined()
    expect(Totp.normaliseSecret("GEZDGNBVGY3TQOJ1")).toBeUndefined()
    expect(Totp.normaliseSecret("A".repeat(129))).toBeUndefined()
    expect(Totp.normaliseSecret("A".repeat(128))).toBe("A".repeat(128))
  })

  it("refuses anything but six digits as an app code", () => {
    expect(Totp.isCodeShape("005924")).toBe(true)
    for (const code of ["", "12345", "1234567", "12a456", " 005924"]) expect(Totp.isCodeShape(code)).toBe(false)
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
