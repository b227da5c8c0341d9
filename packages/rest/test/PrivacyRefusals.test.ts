/**
 * The privacy domain's refusal table: its own refusals become catalogue errors, and the accounts
 * domain's refusals a privacy route meets (password re-check, quotas) answer as on every route.
 * The HTTP answers themselves are pinned by test/deletion.test.ts and test/data-export.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { MfaErrors, RegistrationErrors } from "@veche/auth"
import { PrivacyErrors } from "@veche/privacy"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { refuse, refusing } from "../src/handlers/PrivacyRefusals.ts"

const request = HttpServerRequest.fromWeb(new Request("http://localhost/api/v10/users/@me/delete"))
const failureOf = <E>(effect: Effect.Effect<never, E, HttpServerRequest.HttpServerRequest>) =>
  Effect.flip(Effect.provideService(effect, HttpServerRequest.HttpServerRequest, request))

describe("PrivacyRefusals", () => {
  it("turns every privacy refusal into its catalogue error and leaves other errors alone", () => {
    const owns = refuse(new PrivacyErrors.OwnsGuilds())
    expect(owns._tag).toBe("InvalidFormBody")
    expect(JSON.stringify(owns)).toContain("OWNS_GUILDS_WITH_MEMBERS")
    expect(refuse(new PrivacyErrors.ExportInProgress())._tag).toBe("Conflict")
    const other = { _tag: "SomethingElse" } as const
    expect(refuse(other)).toBe(other)
  })

  it.effect("the accounts domain's refusals on a privacy route answer as on every route", () =>
    Effect.gen(function* () {
      const mismatch = yield* failureOf(refusing(Effect.fail(new MfaErrors.PasswordMismatch())))
      expect(mismatch._tag).toBe("InvalidFormBody")
      expect(JSON.stringify(mismatch)).toContain("PASSWORD_DOES_NOT_MATCH")
      const quota = yield* failureOf(
        refusing(Effect.fail(new RegistrationErrors.TooManyAttempts({ retryAfterMs: 1500 })))
      )
      expect(quota._tag).toBe("RateLimited")
      const owns = yield* failureOf(refusing(Effect.fail(new PrivacyErrors.OwnsGuilds())))
      expect(owns._tag).toBe("InvalidFormBody")
    })
  )
})
