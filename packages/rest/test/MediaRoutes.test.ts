/**
 * The Media routes through HTTP, on a harness of their own until RestApi carries the group: an
 * API of just the Media group, mounted at /api/v10 as RestApp mounts RestApi, over ProfileImages
 * on a memory store that the tests fill through the same service.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import { MediaApi } from "@veche/api"
import { MediaErrors, MediaStorage, ProfileImages } from "@veche/media"
import { SharpImageCodec } from "@veche/sharp"
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, OpenApi } from "effect/http-api"
import { png } from "~/test/support/Png"
import * as MediaHandlers from "../src/handlers/MediaHandlers.ts"

const TestApi = HttpApi.make("veche").add(MediaApi.MediaApi)

const serve = (storage: MediaStorage.MediaStorage["Service"]) => {
  const routes = HttpApiBuilder.layer(TestApi).pipe(
    Layer.provide(
      Layer.effect(
        HttpRouter.HttpRouter,
        Effect.map(HttpRouter.HttpRouter, (router) => router.prefixed("/api/v10"))
      )
    ),
    Layer.provide(HttpApiBuilder.group(TestApi, "media", MediaHandlers.build)),
    Layer.provide(ProfileImages.ProfileImages.layer().pipe(Layer.provide(SharpImageCodec.layer))),
    Layer.provide(Layer.succeed(MediaStorage.MediaStorage, storage)),
    Layer.provide(HttpServer.layerServices)
  )
  return HttpRouter.toWebHandler(routes, { disableLogger: true })
}

const storage = Effect.runSync(MediaStorage.MediaStorage.makeMemory)
const app = serve(storage)
const images = Effect.runSync(
  ProfileImages.ProfileImages.make().pipe(
    Effect.provideService(MediaStorage.MediaStorage, storage),
    Effect.provide(SharpImageCodec.layer)
  )
)

/** A store that is down: reads fail. */
const down = serve(
  MediaStorage.MediaStorage.of({
    connected: true,
    put: () => Effect.fail(new MediaErrors.StorageUnavailable({ reason: "down" })),
    get: () => Effect.fail(new MediaErrors.StorageUnavailable({ reason: "down" })),
    remove: () => Effect.fail(new MediaErrors.StorageUnavailable({ reason: "down" }))
  })
)

afterAll(async () => {
  await app.dispose()
  await down.dispose()
})

const get = (path: string, headers: Record<string, string> = {}, handler = app.handler) =>
  Effect.promise(() => handler(new Request(`http://localhost${path}`, { headers })))

const bytesOf = (response: Response) => Effect.promise(() => response.arrayBuffer().then((b) => new Uint8Array(b)))
const jsonOf = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

const USER = "175928847299117063"
const GUILD = "175928847299117099"
const NOT_FOUND = { code: 0, message: "404: Not Found" }

const upload = (kind: Parameters<typeof images.store>[0], owner: string, bytes: Buffer, label = "image/png") =>
  images.store(kind, owner, `data:${label};base64,${bytes.toString("base64")}`)

/** Stores bytes as they are (the routes serve what is stored; processing is tested in @veche/media). */
const storeRaw = (key: string, contentType: string) =>
  Effect.as(storage.put(key, Buffer.from(`${contentType} bytes`), contentType), key.slice(key.lastIndexOf("/") + 1))

describe("Media routes", () => {
  it.effect("an avatar answers its bytes with the stored type, a year-long immutable cache and an ETag", () =>
    Effect.gen(function* () {
      const hash = yield* upload("avatars", USER, png(), "image/jpeg")
      const response = yield* get(`/api/v10/avatars/${USER}/${hash}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("image/png")
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect(response.headers.get("etag")).toBe(`"${hash}"`)
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      const body = yield* bytesOf(response)
      const stored = Option.getOrThrow(yield* storage.get(`avatars/${USER}/${hash}`))
      expect(Array.from(body)).toEqual(Array.from(stored.bytes))
      expect(Number(response.headers.get("content-length"))).toBe(body.length)
    })
  )

  it.effect("an extension on the hash is ignored, and so is a size query", () =>
    Effect.gen(function* () {
      const hash = yield* upload("avatars", USER, png())
      for (const suffix of [".png", ".jpg", ".webp", ".gif", "?size=128", ".webp?size=64&quality=lossless"]) {
        const response = yield* get(`/api/v10/avatars/${USER}/${hash}${suffix}`)
        expect({ suffix, status: response.status, type: response.headers.get("content-type") }).toEqual({
          suffix,
          status: 200,
          type: "image/png"
        })
      }
    })
  )

  it.effect("If-None-Match with the ETag answers 304 without a body; another ETag gets the image", () =>
    Effect.gen(function* () {
      const hash = yield* upload("avatars", USER, png())
      const path = `/api/v10/avatars/${USER}/${hash}.png`
      for (const ifNoneMatch of [`"${hash}"`, `W/"${hash}"`, `"other", "${hash}"`, "*"]) {
        const cached = yield* get(path, { "if-none-match": ifNoneMatch })
        expect({ ifNoneMatch, status: cached.status }).toEqual({ ifNoneMatch, status: 304 })
        expect(cached.headers.get("etag")).toBe(`"${hash}"`)
        expect(cached.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
        expect((yield* bytesOf(cached)).length).toBe(0)
      }
      const stale = yield* get(path, { "if-none-match": '"0123456789abcdef0123456789abcdef"' })
      expect(stale.status).toBe(200)
    })
  )

  it.effect("each route serves its own kind: icons, banners, user banners", () =>
    Effect.gen(function* () {
      const icon = yield* upload("icons", GUILD, png())
      const banner = yield* storeRaw(`banners/${GUILD}/a_${"1".repeat(32)}`, "image/webp")
      const userBanner = yield* storeRaw(`user-banners/${USER}/${"2".repeat(32)}`, "image/jpeg")
      expect((yield* get(`/api/v10/icons/${GUILD}/${icon}.png`)).headers.get("content-type")).toBe("image/png")
      expect((yield* get(`/api/v10/banners/${GUILD}/${banner}.png`)).headers.get("content-type")).toBe("image/webp")
      expect((yield* get(`/api/v10/user-banners/${USER}/${userBanner}`)).headers.get("content-type")).toBe("image/jpeg")
      // the same hash under another kind's route is not found
      const crossed = yield* get(`/api/v10/avatars/${GUILD}/${icon}`)
      expect(crossed.status).toBe(404)
      expect((yield* get(`/api/v10/icons/${USER}/${userBanner}`)).status).toBe(404)
    })
  )

  it.effect("unknown and malformed ids and hashes all answer 404 {code: 0}, never 400 or 500", () =>
    Effect.gen(function* () {
      const hash = yield* upload("avatars", USER, png())
      for (const path of [
        `/api/v10/avatars/${USER}/0123456789abcdef0123456789abcdef`,
        `/api/v10/avatars/175928847299117000/${hash}`,
        `/api/v10/avatars/not-a-snowflake/${hash}`,
        `/api/v10/avatars/${USER}/not-a-hash`,
        `/api/v10/avatars/${USER}/${hash}.svg`,
        `/api/v10/avatars/${USER}/..%2F..%2Fetc%2Fpasswd`,
        // a long hash (past 100 characters the router matches no route; RestApp's fallback answers that 404)
        `/api/v10/avatars/${USER}/${"f".repeat(99)}`,
        `/api/v10/avatars/%40me/${hash}`,
        `/api/v10/icons/${GUILD}/a_${"0".repeat(32)}.gif`,
        `/api/v10/user-banners/${USER}/%00`
      ]) {
        const response = yield* get(path)
        expect({ path, status: response.status }).toEqual({ path, status: 404 })
        expect({ path, type: response.headers.get("content-type") }).toEqual({ path, type: "application/json" })
        expect(yield* jsonOf(response)).toEqual(NOT_FOUND)
      }
    })
  )

  it.effect("a storage outage answers 503, not a 404 that caches would keep", () =>
    Effect.gen(function* () {
      const response = yield* get(`/api/v10/avatars/${USER}/0123456789abcdef0123456789abcdef`, {}, down.handler)
      expect(response.status).toBe(503)
      expect(yield* jsonOf(response)).toEqual({ code: 0, message: "503: Service Unavailable" })
    })
  )
})

describe("Media routes in the OpenAPI document", () => {
  it("document binary images, 304, 404 and no credentials", () => {
    const document = OpenApi.fromApi(TestApi.prefix("/api/v1"))
    const avatar = document.paths["/api/v1/avatars/{user_id}/{hash}"]?.get
    expect(avatar?.security).toEqual([])
    expect(Object.keys(avatar?.responses ?? {}).sort()).toEqual(["200", "304", "404", "503"])
    expect(avatar?.responses?.["200"]).toMatchObject({
      content: { "image/*": { schema: { type: "string", format: "binary" } } }
    })
    for (const path of [
      "/api/v1/icons/{guild_id}/{hash}",
      "/api/v1/banners/{guild_id}/{hash}",
      "/api/v1/user-banners/{user_id}/{hash}"
    ]) {
      expect(document.paths[path]?.get).toBeDefined()
    }
  })
})

describe("MediaHandlers.uploadErrors", () => {
  it.effect("maps a refused image to 50035 on the field, no storage to 501, an outage to 503", () =>
    Effect.gen(function* () {
      const errors = MediaHandlers.uploadErrors("avatar")
      const rejected = yield* errors.ImageRejected(MediaErrors.ImageRejected.tooLarge(1_048_576)).pipe(Effect.flip)
      expect(rejected).toMatchObject({
        code: 50035,
        errors: {
          avatar: { _errors: [{ code: "BINARY_TYPE_MAX_SIZE", message: "File cannot be larger than 1024.0 kb." }] }
        }
      })
      expect(yield* errors.StorageNotConnected().pipe(Effect.flip)).toMatchObject({
        code: 0,
        message: "501: Not Implemented"
      })
      const unavailable = yield* errors
        .StorageUnavailable(new MediaErrors.StorageUnavailable({ reason: "x" }))
        .pipe(Effect.flip)
      expect(unavailable).toMatchObject({ code: 0, message: "503: Service Unavailable" })
    })
  )
})
