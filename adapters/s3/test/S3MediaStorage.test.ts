import { describe, expect, it, layer } from "@effect/vitest"
import { MediaStorage, MediaStorageConfig } from "@veche/media"
import { mediaStorageContract } from "@veche/media/test/contracts/MediaStorageContract"
import { ConfigProvider, Duration, Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as S3MediaStorage from "../src/S3MediaStorage.ts"
import * as FakeS3Server from "./support/FakeS3Server.ts"

const credentials: FakeS3Server.Credentials = {
  bucket: "veche-media",
  region: "ru-central1",
  accessKeyId: "AKIAVECHETEST",
  secretAccessKey: "s3cr3t-Key-that-must-never-show"
}

const options = (endpoint: string, extra?: Partial<S3MediaStorage.Options>): S3MediaStorage.Options => ({
  endpoint,
  region: credentials.region,
  bucket: credentials.bucket,
  accessKeyId: Redacted.make(credentials.accessKeyId),
  secretAccessKey: Redacted.make(credentials.secretAccessKey),
  forcePathStyle: true,
  ...extra
})

const storageAt = (endpoint: string, extra?: Partial<S3MediaStorage.Options>) =>
  S3MediaStorage.make(options(endpoint, extra)).pipe(Effect.provide(FetchHttpClient.layer))

const KEY = "avatars/175928847299117063/0123456789abcdef0123456789abcdef"

describe("S3MediaStorage", () => {
  layer(
    Layer.effect(
      MediaStorage.MediaStorage,
      Effect.gen(function* () {
        const fake = yield* FakeS3Server.start(credentials)
        return yield* storageAt(fake.baseUrl)
      })
    )
  )("contract (against a local fake S3)", (it) => mediaStorageContract(it))

  it.effect("puts path-style, signed, with the payload digest and the content type the object keeps", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const storage = yield* storageAt(fake.baseUrl)
      yield* storage.put(KEY, Uint8Array.of(1, 2, 3), "image/webp")
      const [request] = fake.received
      expect(request?.method).toBe("PUT")
      expect(request?.path).toBe(`/veche-media/${KEY}`)
      expect(request?.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIAVECHETEST\/\d{8}\/ru-central1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/
      )
      expect(request?.headers["x-amz-content-sha256"]).not.toBe("UNSIGNED-PAYLOAD")
      expect(fake.objects.get(KEY)?.contentType).toBe("image/webp")
      expect(Array.from(fake.objects.get(KEY)?.bytes ?? [])).toEqual([1, 2, 3])
    })
  )

  it.effect("wrong credentials: StorageUnavailable naming the status and S3 code, never the secret", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const storage = yield* storageAt(fake.baseUrl, { secretAccessKey: Redacted.make("wrong-secret") })
      const error = yield* storage.put(KEY, Uint8Array.of(1), "image/png").pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "StorageUnavailable", reason: "S3 answered HTTP 403 SignatureDoesNotMatch" })
      expect(fake.objects.size).toBe(0)
      const reads = yield* storage.get(KEY).pipe(Effect.flip)
      expect(reads.reason).toBe("S3 answered HTTP 403 SignatureDoesNotMatch")
      for (const text of [JSON.stringify(error), String(error), JSON.stringify(reads)]) {
        expect(text).not.toContain("wrong-secret")
        expect(text).not.toContain(credentials.secretAccessKey)
      }
    })
  )

  it.effect("a failing store answers StorageUnavailable on every operation", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const storage = yield* storageAt(fake.baseUrl)
      fake.setMode({ _tag: "fail", status: 500 })
      const reason = "S3 answered HTTP 500 InternalError"
      expect(yield* storage.put(KEY, Uint8Array.of(1), "image/png").pipe(Effect.flip)).toMatchObject({
        _tag: "StorageUnavailable",
        reason
      })
      expect((yield* storage.get(KEY).pipe(Effect.flip)).reason).toBe(reason)
      expect((yield* storage.remove(KEY).pipe(Effect.flip)).reason).toBe(reason)
    })
  )

  it.effect("a bucket that does not exist is not 'no such object': StorageUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const storage = yield* storageAt(fake.baseUrl, { bucket: "other-bucket" })
      const error = yield* storage.get(KEY).pipe(Effect.flip)
      expect(error.reason).toBe("S3 answered HTTP 404 NoSuchBucket")
    })
  )

  it.effect("a store that is down answers StorageUnavailable", () =>
    Effect.gen(function* () {
      const storage = yield* storageAt(yield* FakeS3Server.closedBaseUrl)
      const error = yield* storage.get(KEY).pipe(Effect.flip)
      expect(error.reason).toMatch(/^S3 unreachable/)
    })
  )

  it.live("a store that never answers is cut off at the time limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const storage = yield* storageAt(fake.baseUrl, { timeout: Duration.millis(300) })
      fake.setMode({ _tag: "hang" })
      const error = yield* storage.put(KEY, Uint8Array.of(1), "image/png").pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "StorageUnavailable", reason: "S3 timed out after 300ms" })
    })
  )

  it("addresses objects path-style or virtual-hosted, on AWS by default", () => {
    const base = options("https://storage.yandexcloud.net")
    expect(S3MediaStorage.objectUrl(base, KEY)).toBe(`https://storage.yandexcloud.net/veche-media/${KEY}`)
    expect(S3MediaStorage.objectUrl({ ...base, forcePathStyle: false }, KEY)).toBe(
      `https://veche-media.storage.yandexcloud.net/${KEY}`
    )
    expect(S3MediaStorage.objectUrl({ ...base, endpoint: "http://10.0.0.5:9000/", forcePathStyle: true }, "a/b")).toBe(
      "http://10.0.0.5:9000/veche-media/a/b"
    )
    expect(S3MediaStorage.objectUrl({ ...base, endpoint: undefined, forcePathStyle: false }, "a/b")).toBe(
      "https://veche-media.s3.ru-central1.amazonaws.com/a/b"
    )
  })

  it.effect("layerConfig reads S3_ENDPOINT, S3_REGION, S3_BUCKET, the keys and S3_FORCE_PATH_STYLE", () =>
    Effect.gen(function* () {
      const fake = yield* FakeS3Server.start(credentials)
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({
          S3_ENDPOINT: fake.baseUrl,
          S3_REGION: credentials.region,
          S3_BUCKET: credentials.bucket,
          S3_ACCESS_KEY_ID: credentials.accessKeyId,
          S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
          S3_FORCE_PATH_STYLE: "true"
        })
      )
      const found = yield* Effect.gen(function* () {
        const storage = yield* MediaStorage.MediaStorage
        yield* storage.put(KEY, Uint8Array.of(7), "image/gif")
        return yield* storage.get(KEY)
      }).pipe(
        Effect.provide(S3MediaStorage.layerConfig.pipe(Layer.provide(Layer.mergeAll(env, FetchHttpClient.layer))))
      )
      expect(Option.map(found, (o) => o.contentType)).toEqual(Option.some("image/gif"))
      expect(fake.received[0]?.path).toBe(`/veche-media/${KEY}`)
    })
  )
})

describe("MediaStorageConfig with the S3 adapter", () => {
  const storageWith = (env: Record<string, string>) =>
    Effect.service(MediaStorage.MediaStorage).pipe(
      Effect.provide(
        MediaStorageConfig.layerConfig({ s3: S3MediaStorage.layerConfig }).pipe(
          Layer.provide(Layer.mergeAll(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), FetchHttpClient.layer))
        )
      )
    )

  it.effect("s3 reads the S3_* variables (a missing bucket is a configuration error)", () =>
    Effect.gen(function* () {
      const error = yield* storageWith({ SERVICE_MEDIA_STORAGE: "s3" }).pipe(Effect.flip)
      expect(error._tag).toBe("ConfigError")
      const storage = yield* storageWith({
        SERVICE_MEDIA_STORAGE: "s3",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s"
      })
      expect(storage.connected).toBe(true)
    })
  )
})
