/**
 * A local stand-in for an S3-compatible store, enough of it for `S3MediaStorage`: path-style
 * PutObject, GetObject and DeleteObject on one bucket, with AWS Signature V4 checked the way S3
 * checks it (recomputed here from the AWS documentation, independently of the signing library),
 * the signed payload digest compared with the body, and S3's XML error answers. Tests can make it
 * fail or hang. It lives for the enclosing scope; nothing leaves the machine.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"

export interface Credentials {
  readonly bucket: string
  readonly region: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
}

export interface StoredObject {
  readonly bytes: Buffer
  readonly contentType: string
}

export type Mode =
  | { readonly _tag: "normal" }
  | { readonly _tag: "fail"; readonly status: number }
  | { readonly _tag: "hang" }

export interface FakeS3Server {
  readonly baseUrl: string
  readonly received: ReadonlyArray<Received>
  /** Object key (without the bucket) → object. */
  readonly objects: Map<string, StoredObject>
  setMode(mode: Mode): void
}

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex")
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest()

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/

/** Why the request's signature is wrong, or undefined when it is right. */
const signatureProblem = (
  credentials: Credentials,
  method: string,
  path: string,
  headers: IncomingHttpHeaders
): string | undefined => {
  const match = AUTHORIZATION.exec(String(headers.authorization ?? ""))
  if (match === null) return "malformed Authorization"
  const [, accessKeyId = "", date = "", region = "", signedHeaderList = "", signature = ""] = match
  if (accessKeyId !== credentials.accessKeyId) return "unknown access key"
  if (region !== credentials.region) return "wrong region"
  const amzDate = String(headers["x-amz-date"] ?? "")
  if (!amzDate.startsWith(date)) return "date mismatch"
  const signedHeaders = signedHeaderList.split(";")
  for (const required of ["host", "x-amz-date", "x-amz-content-sha256"]) {
    if (!signedHeaders.includes(required)) return `${required} not signed`
  }
  const [pathname, query = ""] = path.split("?")
  const canonicalRequest = [
    method,
    pathname,
    query,
    ...signedHeaders.map(
      (name) =>
        `${name}:${String(headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}`
    ),
    "",
    signedHeaderList,
    String(headers["x-amz-content-sha256"])
  ].join("\n")
  const scope = `${date}/${region}/s3/aws4_request`
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n")
  const key = hmac(hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), "s3"), "aws4_request")
  const expected = hmac(key, stringToSign)
  return timingSafeEqual(expected, Buffer.from(signature, "hex")) ? undefined : "signature does not match"
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`

export const start = (credentials: Credentials): Effect.Effect<FakeS3Server, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ server: ReturnType<typeof createServer>; fake: FakeS3Server }>((resume) => {
      const received: Array<Received> = []
      const objects = new Map<string, StoredObject>()
      let mode: Mode = { _tag: "normal" }
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const method = req.method ?? ""
          const path = req.url ?? ""
          received.push({ method, path, headers: req.headers })
          const body = Buffer.concat(chunks)
          const answer = (status: number, headers: Record<string, string> = {}, payload: string | Buffer = "") => {
            res.writeHead(status, headers)
            res.end(payload)
          }
          const error = (status: number, code: string, message: string) =>
            answer(status, { "content-type": "application/xml" }, xmlError(code, message))

          if (mode._tag === "hang") return
          if (mode._tag === "fail") return error(mode.status, "InternalError", "We encountered an internal error.")
          const problem = signatureProblem(credentials, method, path, req.headers)
          if (problem !== undefined) return error(403, "SignatureDoesNotMatch", problem)
          const prefix = `/${credentials.bucket}/`
          if (!path.startsWith(prefix)) return error(404, "NoSuchBucket", "The specified bucket does not exist")
          const key = decodeURIComponent(path.slice(prefix.length))
          switch (method) {
            case "PUT": {
              if (sha256(body) !== req.headers["x-amz-content-sha256"]) {
                return error(
                  400,
                  "XAmzContentSHA256Mismatch",
                  "The provided 'x-amz-content-sha256' header does not match"
                )
              }
              const contentType = req.headers["content-type"] ?? "binary/octet-stream"
              objects.set(key, { bytes: body, contentType })
              return answer(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` })
            }
            case "GET": {
              const object = objects.get(key)
              if (object === undefined) return error(404, "NoSuchKey", "The specified key does not exist.")
              return answer(200, { "content-type": object.contentType }, object.bytes)
            }
            case "DELETE":
              objects.delete(key)
              return answer(204)
            default:
              return error(405, "MethodNotAllowed", "The specified method is not allowed")
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(
          Effect.succeed({
            server,
            fake: {
              baseUrl: `http://127.0.0.1:${port}`,
              received,
              objects,
              setMode: (next) => {
                mode = next
              }
            }
          })
        )
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))

/** A base URL where nothing listens (shared with the platform's provider tests). */
export { closedBaseUrl } from "@veche/platform/test/support/FakeHttpServer"
