/** Profile images through HTTP: upload with PATCH /users/@me, fetch from the media routes. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { json, register, send } from "./support/Accounts.ts"
import { givePlus } from "./support/Plus.ts"
import { dataUri, png } from "./support/Png.ts"

const patchMe = (token: string, body: unknown) => send("PATCH", "/api/v10/users/@me", body, token)
const bytesOf = (response: Response) => Effect.promise(() => response.arrayBuffer().then((b) => new Uint8Array(b)))

describe("Avatars and banners", () => {
  layer(TestHost.layer())((it) => {
    it.effect("an uploaded avatar gets a hash in CurrentUser and is served as PNG, cached for good", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79861110001", "avatar_user")
        const updated = yield* patchMe(account.access_token, { avatar: dataUri(png(64)) })
        expect(updated.status).toBe(200)
        const hash = ((yield* json(updated)) as { avatar: string }).avatar
        expect(hash).toMatch(/^[0-9a-f]{32}$/)
        const served = yield* host.fetch(`/api/v10/avatars/${account.user_id}/${hash}.png`)
        expect(served.status).toBe(200)
        expect(served.headers.get("content-type")).toBe("image/png")
        expect(served.headers.get("cache-control")).toContain("immutable")
        const etag = served.headers.get("etag") ?? ""
        expect(
          Buffer.from(yield* bytesOf(served))
            .subarray(1, 4)
            .toString()
        ).toBe("PNG")
        const again = yield* host.fetch(`/api/v10/avatars/${account.user_id}/${hash}`, {
          headers: { "if-none-match": etag }
        })
        expect(again.status).toBe(304)
        // a new image is a new hash; removing clears it
        const second = (
          (yield* json(yield* patchMe(account.access_token, { avatar: dataUri(png(64)) }))) as { avatar: string }
        ).avatar
        expect(second).not.toBe(hash)
        expect(yield* json(yield* patchMe(account.access_token, { avatar: null }))).toMatchObject({ avatar: null })
        expect((yield* host.fetch(`/api/v10/avatars/${account.user_id}/ffffffffffffffffffffffffffffffff`)).status).toBe(
          404
        )
      })
    )

    it.effect("limits are checked on the real bytes: size, pixels, type from the content", () =>
      Effect.gen(function* () {
        const account = yield* register("+79861110002", "avatar_limits")
        const token = account.access_token
        expect((yield* patchMe(token, { avatar: dataUri(png(1024, 1024)) })).status).toBe(200)
        const tall = yield* patchMe(token, { avatar: dataUri(png(1024, 1025)) })
        expect(tall.status).toBe(400)
        expect(yield* json(tall)).toMatchObject({ code: 50035, errors: { avatar: {} } })
        // a PNG labelled as JPEG is stored as the PNG it is
        const labelled = yield* patchMe(token, { avatar: dataUri(png(32), "image/jpeg") })
        expect(labelled.status).toBe(200)
        const garbage = yield* patchMe(token, {
          avatar: `data:image/png;base64,${Buffer.from("not an image").toString("base64")}`
        })
        expect(garbage.status).toBe(400)
        // over 1 MiB of image data (the JSON body itself may be larger than the API-wide 1 MiB here)
        const huge = Buffer.concat([png(16), Buffer.alloc(1024 * 1024)])
        const tooBig = yield* patchMe(token, { avatar: dataUri(huge) })
        expect(tooBig.status).toBe(400)
        expect(yield* json(tooBig)).toMatchObject({
          errors: { avatar: { _errors: [{ code: "BINARY_TYPE_MAX_SIZE" }] } }
        })
        // a polyglot (a PNG followed by a script) comes back re-encoded, without the payload
        const payload = "<script>alert(document.cookie)</script>"
        const polyglot = yield* patchMe(token, { avatar: dataUri(Buffer.concat([png(24), Buffer.from(payload)])) })
        expect(polyglot.status).toBe(200)
        const hash = ((yield* json(polyglot)) as { avatar: string }).avatar
        const host = yield* TestHost.TestHost
        const served = Buffer.from(yield* bytesOf(yield* host.fetch(`/api/v10/avatars/${account.user_id}/${hash}`)))
        expect(served.includes(Buffer.from("<script>"))).toBe(false)
        // a banner (Plus's) may be larger than an avatar
        yield* givePlus(account.user_id)
        expect((yield* patchMe(token, { banner: dataUri(png(2048, 1024)) })).status).toBe(200)
      })
    )
  })
})

describe("Avatars without image storage", () => {
  layer(TestHost.layer({ mediaStorage: "none" }))((it) => {
    it.effect("an upload answers 501; removing still works", () =>
      Effect.gen(function* () {
        const account = yield* register("+79861110003", "avatar_nostore")
        const refused = yield* patchMe(account.access_token, { avatar: dataUri(png(16)) })
        expect(refused.status).toBe(501)
        expect((yield* patchMe(account.access_token, { avatar: null })).status).toBe(200)
      })
    )
  })
})
