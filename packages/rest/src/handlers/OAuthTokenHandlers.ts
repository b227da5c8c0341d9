/**
 * Handlers of the OAuth token routes: `POST /oauth2/token` and `POST /oauth2/token/revoke`. They
 * read their `application/x-www-form-urlencoded` body themselves (raw handlers), so that every
 * answer, a malformed request included, is RFC 6749's `{error, error_description}` with
 * `Cache-Control: no-store` and `Pragma: no-cache`, never the API's 50035.
 *
 * Client authentication (RFC 6749 §2.3.1): HTTP Basic with the form-encoded id and secret (the id
 * may come from Basic alone), or `client_id` (+ `client_secret`) in the body; never a secret both
 * ways. Its failures are 401 `invalid_client`, with `WWW-Authenticate` when Basic was used.
 */
import { OAuthApi, RestApi } from "@veche/api"
import { type OAuthErrors, OAuthTokens } from "@veche/oauth"
import { Effect, Option, Redacted } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"
import { refuse } from "./OAuthRefusals.ts"

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const
const FORM = "application/x-www-form-urlencoded"
/** Generous for every field of these forms (a verifier is at most 128, a token 47). */
const MAX_VALUE = 4096

type Refusal = OAuthApi.OAuthRequestError | OAuthApi.OAuthClientError

const invalidRequest = (description: string) =>
  new OAuthApi.OAuthRequestError({ error: "invalid_request", error_description: description })
const invalidClient = (description: string) =>
  new OAuthApi.OAuthClientError({ error: "invalid_client", error_description: description })

/** The refusal as its answer; `basic`: the client tried HTTP Basic (RFC 6749 §5.2 asks for the challenge). */
const answerRefusal = (refusal: Refusal, basic: boolean) => {
  const unauthorized = refusal._tag === "OAuthClientError"
  return HttpServerResponse.jsonUnsafe(
    { error: refusal.error, error_description: refusal.error_description },
    {
      status: unauthorized ? 401 : 400,
      headers: unauthorized && basic ? { ...NO_STORE, "www-authenticate": 'Basic realm="oauth2"' } : NO_STORE
    }
  )
}

/** A form value per RFC 6749 §2.3.1's encoding: `+` is a space, then percent-decoding. */
const formDecode = (value: string): string | undefined => {
  const spaced = value.replaceAll("+", " ")
  return /%(?![0-9A-Fa-f]{2})/.test(spaced) ? undefined : safeDecode(spaced)
}

const safeDecode = (value: string): string | undefined => {
  // decodeURIComponent refuses an escape that is not UTF-8 (%FF); such credentials are malformed.
  const bytes = value.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  const decoded = Buffer.from(bytes, "latin1").toString("utf8")
  return Buffer.from(decoded, "utf8").equals(Buffer.from(bytes, "latin1")) ? decoded : undefined
}

type Basic = { readonly id: string; readonly secret: string } | "malformed" | undefined

/** HTTP Basic credentials, if the request carries them. */
const basicOf = (authorization: string | undefined): Basic => {
  if (authorization === undefined) return undefined
  const match = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization)
  if (match === null) return /^basic(\s|$)/i.test(authorization) ? "malformed" : undefined
  const text = Buffer.from(match[1] ?? "", "base64").toString("utf8")
  const colon = text.indexOf(":")
  if (colon < 0) return "malformed"
  const id = formDecode(text.slice(0, colon))
  const secret = formDecode(text.slice(colon + 1))
  return id === undefined || secret === undefined || id === "" ? "malformed" : { id, secret }
}

/** The form's fields, each at most once, without NUL; or why the request is malformed. */
const readForm = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase()
  if (type !== FORM) return yield* Effect.fail(invalidRequest(`The body must be ${FORM}.`))
  const params = yield* request.urlParamsBody.pipe(Effect.mapError(() => invalidRequest("The body could not be read.")))
  const fields = new Map<string, string>()
  for (const [name, entry] of params) {
    const value = typeof entry === "string" ? entry : Redacted.value(entry)
    if (fields.has(name)) return yield* Effect.fail(invalidRequest(`"${name}" is given more than once.`))
    if (value.includes("\u0000") || name.includes("\u0000")) {
      return yield* Effect.fail(invalidRequest("The body must not contain NUL characters."))
    }
    if (value.length > MAX_VALUE) return yield* Effect.fail(invalidRequest(`"${name}" is too long.`))
    fields.set(name, value)
  }
  return fields
})

/** Who the client says it is, from Basic or the body, never a secret both ways. */
const clientOf = (
  basic: Basic,
  fields: ReadonlyMap<string, string>
): Effect.Effect<OAuthTokens.ClientProof, Refusal> => {
  if (basic === "malformed") return Effect.fail(invalidClient("Malformed HTTP Basic credentials."))
  const bodyId = fields.get("client_id")
  const bodySecret = fields.get("client_secret")
  if (basic !== undefined) {
    if (bodySecret !== undefined) {
      return Effect.fail(invalidRequest("Use one client authentication method: HTTP Basic or the body, not both."))
    }
    if (bodyId !== undefined && bodyId !== basic.id) {
      return Effect.fail(invalidRequest("client_id differs from the HTTP Basic credentials."))
    }
    return Effect.succeed({
      clientId: basic.id,
      secret: basic.secret === "" ? Option.none() : Option.some(Redacted.make(basic.secret))
    })
  }
  if (bodyId === undefined || bodyId === "") return Effect.fail(invalidClient("client_id is required."))
  return Effect.succeed({
    clientId: bodyId,
    secret: bodySecret === undefined || bodySecret === "" ? Option.none() : Option.some(Redacted.make(bodySecret))
  })
}

const requiredField = (fields: ReadonlyMap<string, string>, name: string) => {
  const value = fields.get(name)
  return value === undefined || value === ""
    ? Effect.fail(invalidRequest(`"${name}" is required.`))
    : Effect.succeed(value)
}

export const layer: GroupLayer.RateLimited<"oauthToken", OAuthTokens.OAuthTokens> = HttpApiBuilder.group(
  RestApi.RestApi,
  "oauthToken",
  (handlers) =>
    Effect.gen(function* () {
      const tokens = yield* OAuthTokens.OAuthTokens

      /** Runs a route's work and answers it, success or refusal, as the token endpoint must. */
      const respond = (
        request: HttpServerRequest.HttpServerRequest,
        work: (
          fields: ReadonlyMap<string, string>,
          client: Effect.Effect<OAuthTokens.ClientProof, Refusal>,
          /** Whether the request names a client at all (Basic, or client_id / client_secret in the body). */
          clientNamed: boolean
        ) => Effect.Effect<
          HttpServerResponse.HttpServerResponse,
          Refusal | OAuthErrors.InvalidClient | OAuthErrors.InvalidGrant
        >
      ): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
        const basic = basicOf(request.headers.authorization)
        return Effect.flatMap(readForm(request), (fields) =>
          work(
            fields,
            clientOf(basic, fields),
            basic !== undefined || fields.has("client_id") || fields.has("client_secret")
          )
        ).pipe(Effect.catch((error) => Effect.succeed(answerRefusal(refuse(error), basic !== undefined))))
      }

      const issued = (answer: OAuthTokens.Issued) =>
        HttpServerResponse.jsonUnsafe(
          {
            access_token: Redacted.value(answer.accessToken),
            token_type: "Bearer",
            expires_in: answer.expiresIn,
            refresh_token: Redacted.value(answer.refreshToken),
            scope: answer.scopes.join(" ")
          } satisfies typeof OAuthApi.TokenAnswer.Type,
          { status: 200, headers: NO_STORE }
        )

      return handlers
        .handleRaw(
          "token",
          ({ request }): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
            respond(request, (fields, client) =>
              Effect.gen(function* () {
                const grantType = yield* requiredField(fields, "grant_type")
                if (grantType === "authorization_code") {
                  const proof = yield* client
                  const code = yield* requiredField(fields, "code")
                  return issued(
                    yield* tokens.exchangeCode(proof, {
                      code: Redacted.make(code),
                      redirectUri: fields.get("redirect_uri"),
                      codeVerifier: fields.get("code_verifier")
                    })
                  )
                }
                if (grantType === "refresh_token") {
                  const proof = yield* client
                  const refreshToken = yield* requiredField(fields, "refresh_token")
                  return issued(yield* tokens.refresh(proof, Redacted.make(refreshToken)))
                }
                return yield* Effect.fail(
                  new OAuthApi.OAuthRequestError({
                    error: "unsupported_grant_type",
                    error_description: `Unsupported grant_type "${grantType.slice(0, 64)}".`
                  })
                )
              })
            )
        )
        .handleRaw(
          "revokeToken",
          ({ request }): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
            respond(request, (fields, client, clientNamed) =>
              Effect.gen(function* () {
                const token = yield* requiredField(fields, "token")
                // The spec's revocation takes only `token` and answers 200 always: a request naming
                // no client is its holder ending it. A client that names itself must prove it (401
                // otherwise), and then only its own tokens end.
                const proof = clientNamed ? Option.some(yield* client) : Option.none()
                // RFC 7009: 200 whether or not the token existed, was expired, or was another client's.
                yield* tokens.revoke(proof, Redacted.make(token))
                return HttpServerResponse.empty({ status: 200, headers: NO_STORE })
              })
            )
        )
    })
)
