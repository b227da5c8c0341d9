import { randomBytes } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { parseKeyRing, SecretBox } from "../src/SecretBox.ts"

const key = (id: string) => ({ id, key: Redacted.make(new Uint8Array(randomBytes(32))) })

describe("SecretBox", () => {
  const one = key("k1")
  const two = key("k2")

  it.effect("opens what it sealed, only with the same associated data", () =>
    Effect.gen(function* () {
      const box = SecretBox.make([one])
      const sealed = yield* box.seal("JBSWY3DPEHPK3PXP", "user:1")
      expect(sealed.startsWith("v1.k1.")).toBe(true)
      expect(sealed).not.toContain("JBSWY3DPEHPK3PXP")
      expect(yield* box.open(sealed, "user:1")).toBe("JBSWY3DPEHPK3PXP")
      expect(yield* box.open(sealed, "user:2").pipe(Effect.flip)).toMatchObject({ _tag: "SecretBoxError" })
      // a fresh nonce every time
      expect(yield* box.seal("JBSWY3DPEHPK3PXP", "user:1")).not.toBe(sealed)
    })
  )

  it.effect("refuses tampered bodies, short tags and unknown keys", () =>
    Effect.gen(function* () {
      const box = SecretBox.make([one])
      const sealed = yield* box.seal("secret", "ad")
      const [v, id, nonce, body, tag] = sealed.split(".") as [string, string, string, string, string]
      const flipped = Buffer.from(body, "base64url")
      flipped[0] = (flipped[0] ?? 0) ^ 1
      const cases = [
        [v, id, nonce, flipped.toString("base64url"), tag].join("."),
        [v, id, nonce, body, Buffer.from(tag, "base64url").subarray(0, 4).toString("base64url")].join("."),
        [v, "nope", nonce, body, tag].join("."),
        "v2.k1.a.b.c",
        "garbage"
      ]
      for (const envelope of cases) {
        expect(yield* box.open(envelope, "ad").pipe(Effect.flip)).toMatchObject({ _tag: "SecretBoxError" })
      }
    })
  )

  it.effect("seals with the first key and still opens with the older ones (rotation)", () =>
    Effect.gen(function* () {
      const old = yield* SecretBox.make([one]).seal("kept", "ad")
      const rotated = SecretBox.make([two, one])
      expect(yield* rotated.open(old, "ad")).toBe("kept")
      expect((yield* rotated.seal("new", "ad")).startsWith("v1.k2.")).toBe(true)
    })
  )

  it("parses the key ring and explains mistakes without echoing keys", () => {
    const k = randomBytes(32).toString("base64")
    const parsed = parseKeyRing(`a:${k}, b-2:${k}`)
    expect(typeof parsed).not.toBe("string")
    expect(parseKeyRing(`a:${k},a:${k}`)).toMatch(/twice/)
    expect(parseKeyRing("a:c2hvcnQ=")).toMatch(/32 bytes/)
    expect(parseKeyRing(k)).toMatch(/id:base64key/)
    expect(parseKeyRing(`bad id:${k}`)).toMatch(/bad key id/)
  })

  it.effect("layerConfig requires keys outside dev", () =>
    Effect.gen(function* () {
      const provide = (env: Record<string, string>) =>
        Effect.provide(
          Effect.service(SecretBox),
          SecretBox.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))))
        )
      const k = randomBytes(32).toString("base64")
      const box = yield* provide({ SERVICE_ENV: "prod", SERVICE_SECRET_KEYS: `main:${k}` })
      expect(yield* box.open(yield* box.seal("x", "y"), "y")).toBe("x")
      const refused = yield* provide({ SERVICE_ENV: "prod" }).pipe(Effect.flip)
      expect(String(refused)).toMatch(/SERVICE_SECRET_KEYS is required/)
      yield* provide({ SERVICE_ENV: "dev" })
    })
  )
})
