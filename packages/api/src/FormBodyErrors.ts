/**
 * The request-decoding middleware's tag: every route may answer 50035 (a field does not fit, every
 * problem listed) or 50109 (the body is not JSON), and clients decode both. The translation is
 * `@veche/rest`'s `FormBodyErrorsMiddleware`.
 */
import { InvalidFormBody, InvalidJson } from "@veche/errors"
import { HttpApiMiddleware } from "effect/http-api"

export class FormBodyErrors extends HttpApiMiddleware.Service<FormBodyErrors>()("@veche/api/FormBodyErrors", {
  error: [InvalidFormBody, InvalidJson]
}) {}
