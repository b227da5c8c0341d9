/**
 * The request-decoding middleware (the tag is `@veche/api`'s `FormBodyErrors`): turns request
 * decoding failures (path, query, headers, body) into the mirrored platform's answers: a body that
 * is not JSON is 50109; anything that does not fit the schema is 50035 with every problem listed
 * per field. Before any decoding, it refuses a NUL character in any string of
 * the request (`NulBytes`): one rule for every route, as 50035 naming the field.
 */
import { FormBodyErrors } from "@veche/api"
import { FormErrors, InvalidFormBody, InvalidJson } from "@veche/errors"
import { Effect, Layer, type Types } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiError } from "effect/http-api"
import * as NulBytes from "./NulBytes.ts"

// HttpApi reports an unparseable JSON body as a root-level InvalidValue with this message (effect
// 4.1, HttpApiBuilder.decodePayload); a test pins it so an upgrade that changes it is noticed.
const NOT_JSON = "Expected a valid JSON body"

const fromSchemaError = (
  error: HttpApiError.HttpApiSchemaError
): Effect.Effect<never, InvalidFormBody | InvalidJson> => {
  const issue = error.cause.issue
  if (error.kind === "Payload" && issue._tag === "InvalidValue" && issue.annotations?.message === NOT_JSON) {
    return Effect.fail(new InvalidJson())
  }
  return Effect.fail(InvalidFormBody.fromIssue(issue))
}

/**
 * Applied once per endpoint when the routes are built: what is constant (whether it takes a body,
 * the decoding-failure mapping) is settled here; each request pays only the `NulBytes.mayHold`
 * look at its URL unless it could carry a NUL.
 */
export const layer: Layer.Layer<FormBodyErrors.FormBodyErrors> = Layer.succeed(
  FormBodyErrors.FormBodyErrors,
  FormBodyErrors.FormBodyErrors.of((httpEffect, { endpoint }) => {
    const withBody = endpoint.payload.size > 0
    const decoded = Effect.catch(
      httpEffect,
      (error): Effect.Effect<never, Types.unhandled | InvalidFormBody | InvalidJson> =>
        HttpApiError.HttpApiSchemaError.is(error) ? fromSchemaError(error) : Effect.fail(error)
    )
    const checked = Effect.flatMap(NulBytes.inRequest(withBody), (nul) =>
      FormErrors.isEmpty(nul) ? decoded : Effect.fail(new InvalidFormBody({ errors: nul }))
    )
    return Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      NulBytes.mayHold(request, withBody) ? checked : decoded
    )
  })
)
