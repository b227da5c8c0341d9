/**
 * Turns request decoding failures (path, query, headers, body) into the mirrored platform's
 * answers: a body that is not JSON is 50109; anything that does not fit the schema is 50035 with
 * every problem listed per field.
 */
import { InvalidFormBody, InvalidJson } from "@veche/errors"
import { Effect, type Layer } from "effect"
import { HttpApiMiddleware } from "effect/http-api"

export class FormBodyErrors extends HttpApiMiddleware.Service<FormBodyErrors>()("@veche/rest/FormBodyErrors", {
  error: [InvalidFormBody, InvalidJson]
}) {}

// HttpApi reports an unparseable JSON body as a root-level InvalidValue with this message (effect
// 4.1, HttpApiBuilder.decodePayload); a test pins it so an upgrade that changes it is noticed.
const NOT_JSON = "Expected a valid JSON body"

export const layer: Layer.Layer<FormBodyErrors> = HttpApiMiddleware.layerSchemaErrorTransform(
  FormBodyErrors,
  (error) => {
    const issue = error.cause.issue
    if (error.kind === "Payload" && issue._tag === "InvalidValue" && issue.annotations?.message === NOT_JSON) {
      return Effect.fail(new InvalidJson())
    }
    return Effect.fail(InvalidFormBody.fromIssue(issue))
  }
)
