/**
 * Blocks and restrictions take the same body (a reason and an optional end) and refuse the same
 * bad ones; both suites drive these cases through their own route.
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { json } from "./Accounts.ts"

/** Each bad PUT answers 400 50035 naming its field; the staff member cannot be the target. */
export const expectBadTermsRefused = <R>(
  put: (userId: string, payload: unknown) => Effect.Effect<Response, never, R>,
  targetId: string,
  staffId: string
) =>
  Effect.gen(function* () {
    const cases: Array<[string, unknown, string]> = [
      [targetId, { reason: "" }, "reason"],
      [targetId, { reason: "x".repeat(201) }, "reason"],
      [targetId, {}, "reason"],
      [targetId, { reason: "spam", until: "tomorrow" }, "until"],
      [targetId, { reason: "spam", until: "2020-01-01T00:00:00Z" }, "until"],
      [staffId, { reason: "oops" }, "user_id"]
    ]
    for (const [userId, payload, field] of cases) {
      const response = yield* put(userId, payload)
      expect(response.status).toBe(400)
      expect(yield* json(response)).toMatchObject({ code: 50035, errors: { [field]: {} } })
    }
  })
