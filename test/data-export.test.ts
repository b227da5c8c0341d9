/** Data exports through HTTP: queued, built in the background, downloaded by a one-hour link, kept a week. */

import { describe, expect, layer } from "@effect/vitest"
import { DataExports } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"
import { unzip } from "./support/Unzip.ts"

interface ExportView {
  readonly id: string | null
  readonly status: string
  readonly url: string | null
  readonly url_expires_at: string | null
  readonly size: number | null
}

const latest = (token: string) => Effect.flatMap(send("GET", "/api/v10/users/@me/export", undefined, token), json)

/** The export once the background worker has built it. */
const built = (token: string) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    yield* host.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
    return (yield* latest(token)) as ExportView
  })

describe("Data export", () => {
  layer(TestHost.layer())((it) => {
    it.effect("is built in the background; the archive holds the account and no secrets", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79961110001", "export_user", { email: "export@example.org" })
        const token = account.access_token
        expect(yield* latest(token)).toMatchObject({ status: "none", id: null, url: null })
        const queued = yield* post("/api/v10/users/@me/export", undefined, token)
        expect(queued.status).toBe(200)
        expect(yield* json(queued)).toMatchObject({ status: "preparing", url: null })

        const ready = yield* built(token)
        expect(ready.status).toBe("ready")
        expect(ready.url).toMatch(/^\/api\/v10\/exports\/\d+\?token=vdl_/)
        const download = yield* host.fetch(ready.url ?? "")
        expect(download.status).toBe(200)
        expect(download.headers.get("content-type")).toBe("application/zip")
        const bytes = new Uint8Array(yield* Effect.promise(() => download.arrayBuffer()))
        expect(bytes.length).toBe(ready.size)
        const files = unzip(bytes)
        expect(Object.keys(files).sort()).toEqual(
          ["README.txt", "account.json", "profile.json", "security.json", "servers.json", "sessions.json"].sort()
        )
        expect(JSON.parse(files["account.json"] ?? "{}")).toMatchObject({
          id: account.user_id,
          username: "export_user",
          phone: "+79961110001",
          date_of_birth: "1995-01-01"
        })
        expect(JSON.parse(files["sessions.json"] ?? "[]")).toHaveLength(1)
        const everything = Object.values(files).join("\n")
        for (const secret of ["argon2", "vat_", "vrt_", account.access_token, PASSWORD]) {
          expect(everything).not.toContain(secret)
        }
      })
    )

    it.effect("links last an hour and only their own export opens with them; archives are kept a week", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79961110002", "export_links")
        yield* post("/api/v10/users/@me/export", undefined, account.access_token)
        const ready = yield* built(account.access_token)
        const url = ready.url ?? ""
        expect((yield* host.fetch(url.replace(/token=[^&]+/, "token=vdl_forged"))).status).toBe(404)
        expect((yield* host.fetch(url.replace(/exports\/\d+/, "exports/1234567890123456789"))).status).toBe(404)
        expect((yield* host.fetch(url.split("?")[0] ?? "")).status).toBe(404)
        yield* host.adjustClock("1 hour")
        expect((yield* host.fetch(url)).status).toBe(404)
        const fresh = yield* login({ login: "+79961110002", password: PASSWORD })
        const token = ((yield* json(fresh)) as { access_token: string }).access_token
        const again = (yield* latest(token)) as ExportView
        expect(again.url).not.toBe(url)
        expect((yield* host.fetch(again.url ?? "")).status).toBe(200)

        // one a day
        expect((yield* post("/api/v10/users/@me/export", undefined, token)).status).toBe(429)
        yield* host.adjustClock("7 days")
        const later = (
          (yield* json(yield* login({ login: "+79961110002", password: PASSWORD }))) as { access_token: string }
        ).access_token
        yield* host.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
        expect(yield* latest(later)).toMatchObject({ status: "expired", url: null })
        expect((yield* host.fetch(again.url ?? "")).status).toBe(404)
        expect((yield* post("/api/v10/users/@me/export", undefined, later)).status).toBe(200)
      })
    )
  })
})
