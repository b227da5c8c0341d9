/**
 * Per-address limits through HTTP count an IPv6 client by its /64 (and its /48, with eight times
 * the allowance): fresh addresses from one /64 neither skip the captcha nor pump SMS.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { json, post } from "./support/Accounts.ts"

const startFrom = (phone: string, from: string, captcha_token?: string) =>
  post(
    "/api/v10/auth/register/phone",
    { phone, ...(captcha_token === undefined ? {} : { captcha_token }) },
    undefined,
    from
  )

describe("Address groups on the account flows", () => {
  layer(TestHost.layer())((it) => {
    it.effect("a second address in the same /64 is asked for the captcha", () =>
      Effect.gen(function* () {
        expect((yield* startFrom("+79270000001", "2001:db8:70:1::1")).status).toBe(200)
        const second = yield* startFrom("+79270000002", "2001:db8:70:1:9999::2")
        expect(second.status).toBe(400)
        expect(yield* json(second)).toMatchObject({
          errors: { captcha_token: { _errors: [{ code: "CAPTCHA_REQUIRED" }] } }
        })
        // the same holds for login, and for an IPv4 client written as IPv4-mapped IPv6
        const login = (from: string) =>
          post("/api/v10/auth/login", { login: "+79270000009", password: "wrong password" }, undefined, from)
        expect((yield* login("198.51.100.70")).status).toBe(401)
        expect((yield* login("::ffff:198.51.100.70")).status).toBe(400)
      })
    )

    it.effect("SMS per address: one /64 gets 10 codes an hour, a /48 eighty", () =>
      Effect.gen(function* () {
        let phone = 79271000000
        const statuses: Array<number> = []
        for (let i = 0; i < 11; i++) {
          statuses.push((yield* startFrom(`+${++phone}`, `2001:db8:71:1::${i + 1}`, "dev")).status)
        }
        expect(statuses).toEqual([...Array.from({ length: 10 }, () => 200), 429])
        // seven more /64s of the /48 use up its 80, the ninth /64 is refused on its first code
        for (let net = 2; net <= 8; net++) {
          for (let i = 0; i < 10; i++) {
            expect((yield* startFrom(`+${++phone}`, `2001:db8:71:${net}::${i + 1}`, "dev")).status).toBe(200)
          }
        }
        expect((yield* startFrom(`+${++phone}`, "2001:db8:71:9::1", "dev")).status).toBe(429)
        expect((yield* startFrom(`+${++phone}`, "2001:db8:72:1::1", "dev")).status).toBe(200)
      })
    )
  })
})
