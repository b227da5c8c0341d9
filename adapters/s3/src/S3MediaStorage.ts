/**
 * `MediaStorage` in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Yandex Object Storage…):
 * PutObject, GetObject and DeleteObject over Effect's HttpClient, signed with AWS Signature V4 by
 * `aws4fetch`. Each object keeps its content type as the object's own `Content-Type`, so a bucket
 * could also be served directly by a CDN under the same paths as the media routes.
 *
 * The payload's SHA-256 is signed (not `UNSIGNED-PAYLOAD`), so a body altered in transit is refused
 * by the store. Failures become `StorageUnavailable` with a reason that names the HTTP status and
 * the S3 error code, never the signed headers or the credentials.
 */
import { createHash } from "node:crypto"
import { MediaErrors, MediaKey, MediaStorage } from "@veche/media"
import { Urls } from "@veche/platform"
import { AwsV4Signer } from "aws4fetch"
import { Config, Duration, Effect, Layer, Option, Redacted } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"

export interface Options {
  /** Default `https://s3.<region>.amazonaws.com`; for other stores their endpoint URL. */
  readonly endpoint?: string | undefined
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: Redacted.Redacted<string>
  readonly secretAccessKey: Redacted.Redacted<string>
  /**
   * `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`: what MinIO and most
   * self-hosted stores need, and what an endpoint without wildcard DNS (an IP address) requires.
   */
  readonly forcePathStyle?: boolean | undefined
  readonly timeout?: Duration.Duration | undefined
}

/** Ten seconds: an object of a few megabytes, on a slow link to a remote bucket. */
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.seconds(10)

const EMPTY_SHA256 = createHash("sha256").digest("hex")

/** The object's URL under either addressing style. Keys are `MediaKey`s: nothing to escape. */
export const objectUrl = (options: Options, key: string): string => {
  const endpoint = new URL(options.endpoint ?? `https://s3.${options.region}.amazonaws.com`)
  const basePath = Urls.withoutTrailingSlashes(endpoint.pathname)
  if (options.forcePathStyle === true) {
    return `${endpoint.protocol}//${endpoint.host}${basePath}/${options.bucket}/${key}`
  }
  return `${endpoint.protocol}//${options.bucket}.${endpoint.host}${basePath}/${key}`
}

// S3 error answers are XML: <Error><Code>NoSuchBucket</Code><Message>…</Message>…</Error>.
const S3_CODE = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/

export const make = (
  options: Options
): Effect.Effect<MediaStorage.MediaStorage["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const timeout = options.timeout ?? DEFAULT_TIMEOUT

    const unavailable = (reason: string) => new MediaErrors.StorageUnavailable({ reason: `S3 ${reason}` })

    /** A request for `key` carrying the signed headers (host, date, payload digest, content type). */
    const signed = (method: "PUT" | "GET" | "DELETE", key: string, body?: { bytes: Uint8Array; contentType: string }) =>
      Effect.tryPromise({
        try: async () => {
          const url = objectUrl(options, key)
          const headers: Record<string, string> = {
            "x-amz-content-sha256":
              body === undefined ? EMPTY_SHA256 : createHash("sha256").update(body.bytes).digest("hex"),
            ...(body === undefined ? {} : { "content-type": body.contentType })
          }
          const signature = await new AwsV4Signer({
            method,
            url,
            headers,
            accessKeyId: Redacted.value(options.accessKeyId),
            secretAccessKey: Redacted.value(options.secretAccessKey),
            service: "s3",
            region: options.region,
            // content-type too (the signer leaves it out by default): the stored type is part of what is vouched for
            allHeaders: true
          }).sign()
          const request = HttpClientRequest.make(method)(signature.url.toString()).pipe(
            HttpClientRequest.setHeaders(Object.fromEntries(signature.headers))
          )
          return body === undefined ? request : HttpClientRequest.bodyUint8Array(request, body.bytes, body.contentType)
        },
        catch: () => unavailable("request signing failed")
      })

    /** Sends the request and reads the whole answer, within the time limit. */
    const exchange = (request: HttpClientRequest.HttpClientRequest) =>
      client.execute(request).pipe(
        Effect.mapError((error) => unavailable(`unreachable (${error.reason._tag})`)),
        Effect.flatMap((response) =>
          response.arrayBuffer.pipe(
            Effect.mapError(() => unavailable(`answer unreadable (HTTP ${response.status})`)),
            Effect.map((body) => ({ response, body: new Uint8Array(body) }))
          )
        ),
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(unavailable(`timed out after ${Duration.format(timeout)}`))
        })
      )

    const errorCode = (body: Uint8Array): string | undefined =>
      S3_CODE.exec(Buffer.from(body.subarray(0, 4096)).toString("utf8"))?.[1]

    const refused = (response: HttpClientResponse.HttpClientResponse, body: Uint8Array) => {
      const code = errorCode(body)
      return unavailable(`answered HTTP ${response.status}${code === undefined ? "" : ` ${code}`}`)
    }

    /** 404 for the object, not for the bucket (NoSuchBucket is a configuration problem). */
    const isNoSuchKey = (response: HttpClientResponse.HttpClientResponse, body: Uint8Array): boolean => {
      if (response.status !== 404) return false
      const code = errorCode(body)
      return code === undefined || code === "NoSuchKey"
    }

    const put = Effect.fn("S3MediaStorage.put")(function* (key: string, bytes: Uint8Array, contentType: string) {
      if (!MediaKey.isValid(key)) return yield* Effect.die(MediaKey.invalidKeyDefect(key))
      const { response, body } = yield* exchange(yield* signed("PUT", key, { bytes, contentType }))
      if (response.status !== 200) return yield* refused(response, body)
    })

    const get = Effect.fn("S3MediaStorage.get")(function* (key: string) {
      if (!MediaKey.isValid(key)) return Option.none<MediaStorage.StoredObject>()
      const { response, body } = yield* exchange(yield* signed("GET", key))
      if (isNoSuchKey(response, body)) return Option.none<MediaStorage.StoredObject>()
      if (response.status !== 200) return yield* refused(response, body)
      const contentType = response.headers["content-type"] ?? "application/octet-stream"
      return Option.some<MediaStorage.StoredObject>({ bytes: body, contentType })
    })

    const remove = Effect.fn("S3MediaStorage.remove")(function* (key: string) {
      if (!MediaKey.isValid(key)) return yield* Effect.die(MediaKey.invalidKeyDefect(key))
      const { response, body } = yield* exchange(yield* signed("DELETE", key))
      // S3 answers 204 whether or not the object existed; some compatible stores answer 404.
      if (response.status !== 204 && response.status !== 200 && !isNoSuchKey(response, body)) {
        return yield* refused(response, body)
      }
    })

    return MediaStorage.MediaStorage.of({ connected: true, put, get, remove })
  })

export const layer = (options: Options): Layer.Layer<MediaStorage.MediaStorage, never, HttpClient.HttpClient> =>
  Layer.effect(MediaStorage.MediaStorage, make(options))

/**
 * `S3_BUCKET`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY` (required; the last two secret),
 * `S3_REGION` (default `us-east-1`), `S3_ENDPOINT` (default AWS's endpoint for the region),
 * `S3_FORCE_PATH_STYLE` (default false).
 */
export const layerConfig: Layer.Layer<MediaStorage.MediaStorage, Config.ConfigError, HttpClient.HttpClient> =
  Layer.unwrap(
    Effect.gen(function* () {
      const endpoint = yield* Config.option(Config.NonEmptyString("S3_ENDPOINT"))
      const region = yield* Config.NonEmptyString("S3_REGION").pipe(Config.withDefault("us-east-1"))
      const bucket = yield* Config.NonEmptyString("S3_BUCKET")
      const accessKeyId = yield* Config.Redacted("S3_ACCESS_KEY_ID")
      const secretAccessKey = yield* Config.Redacted("S3_SECRET_ACCESS_KEY")
      const forcePathStyle = yield* Config.Boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false))
      return layer({
        endpoint: Option.getOrUndefined(endpoint),
        region,
        bucket,
        accessKeyId,
        secretAccessKey,
        forcePathStyle
      })
    })
  )
