/**
 * The `formCode` annotation and the field-error codes of the mirrored platform's "Invalid Form Body"
 * (50035) answers. A domain puts `formCode` on a Schema filter (or on an issue it builds) to choose the
 * code a failing field reports; `FormErrors.fromIssue` reads it. Importing this package (even
 * `import type {} from "@veche/errors"`) brings the annotation into scope.
 */

declare module "effect/Schema" {
  namespace Annotations {
    interface Annotations {
      /** Code of the 50035 field error this schema, filter or issue reports, e.g. "BASE_TYPE_BAD_LENGTH". */
      readonly formCode?: string | undefined
    }
  }
}

/** A field-error code, e.g. "BASE_TYPE_REQUIRED" or a domain's own "USERNAME_ALREADY_TAKEN". */
export type FormCode = string

/**
 * Codes the mirrored platform is known to send and that `FormErrors.fromIssue` derives by itself.
 * Constants rather than string literals scattered in domains, so a typo fails to compile.
 */
export const BaseTypeRequired = "BASE_TYPE_REQUIRED"
export const BaseTypeInvalid = "BASE_TYPE_INVALID"
export const BaseTypeUnknownField = "BASE_TYPE_UNKNOWN_FIELD"
export const BaseTypeChoices = "BASE_TYPE_CHOICES"
export const BaseTypeMinLength = "BASE_TYPE_MIN_LENGTH"
export const BaseTypeMaxLength = "BASE_TYPE_MAX_LENGTH"
export const BaseTypeBadLength = "BASE_TYPE_BAD_LENGTH"
export const NumberTypeCoerce = "NUMBER_TYPE_COERCE"
export const NumberTypeMin = "NUMBER_TYPE_MIN"
export const NumberTypeMax = "NUMBER_TYPE_MAX"
export const StringTypeRegex = "STRING_TYPE_REGEX"
export const DictTypeConvert = "DICT_TYPE_CONVERT"
export const ListTypeConvert = "LIST_TYPE_CONVERT"
export const DateTypeParse = "DATE_TYPE_PARSE"
export const EmailTypeInvalidEmail = "EMAIL_TYPE_INVALID_EMAIL"
export const ContentTypeInvalid = "CONTENT_TYPE_INVALID"
