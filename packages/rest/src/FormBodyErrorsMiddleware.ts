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

export const layer: Layer.Layer<FormBodyErrors.FormBodyErrors> = Layer.succeed(
  FormBodyErrors.FormBodyErrors,
  FormBodyErrors.FormBodyErrors.of((httpEffect, { endpoint }) =>
    Effect.flatMap(NulBytes.inRequest(endpoint.payload.size > 0), (nul) =>
      FormErrors.isEmpty(nul)
        ? Effect.catch(
            httpEffect,
            (error): Effect.Effect<never, Types.unhandled | InvalidFormBody | InvalidJson> =>
              HttpApiError.HttpApiSchemaError.is(error) ? fromSchemaError(error) : Effect.fail(error)
          )
        : Effect.fail(new InvalidFormBody({ errors: nul }))
    )
  )
)
