import { describe, expect, it } from "@effect/vitest"
import { Veche } from "@veche/kit"
import type { RestApp } from "@veche/rest"

// What the routes need and neither the kit builds nor a host is asked for: must stay empty, so a
// host that provides `Veche.Requirements` under `Veche.layer` can serve `RestApp.routes`.
type Unanswered = Exclude<RestApp.Services, Veche.Services | Veche.Requirements>
const everyRouteServiceAnswered: [Unanswered] extends [never] ? true : Unanswered = true

describe("Veche", () => {
  it("answers every service the REST routes read", () => {
    expect(everyRouteServiceAnswered).toBe(true)
    expect(Veche.layer).toBeDefined()
  })
})
