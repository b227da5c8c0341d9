/**
 * One terminal Schema issue -> one 50035 field error `{code, message}`. Chooses the mirrored
 * platform's code where the failure maps onto one of its validators (missing key, length, range,
 * number coercion, choices, object/list expected) and keeps messages short and human.
 *
 * Precedence: a `formCode`/`message` the domain wrote (on the filter, the issue or the schema) wins
 * over what is derived here. Input values are quoted only in the coercion messages, and only when the
 * decoder was run with `reportInput` (the platform does the same: `Value "abc" is not int.`); other
 * messages never echo input, so a rejected password cannot come back in an error body.
 */
import { type Schema, type SchemaAST, SchemaIssue } from "effect"
import * as FormCode from "../FormCode.ts"
import type { Leaf } from "../FormErrors.ts"

const format = SchemaIssue.makeFormatterDefault()

/**
 * The same issue without the input `reportInput` attached, so the formatter's fallback text
 * ("Expected a UUID", not "Expected a UUID, got \"...\"") cannot echo a submitted secret.
 */
const withoutInput = (issue: SchemaIssue.Issue): SchemaIssue.Issue => {
  switch (issue._tag) {
    case "InvalidType":
      return new SchemaIssue.InvalidType(issue.ast)
    case "InvalidValue":
      return new SchemaIssue.InvalidValue(issue.annotations)
    case "Forbidden":
      return new SchemaIssue.Forbidden(issue.annotations)
    case "OneOf":
      return new SchemaIssue.OneOf(issue.ast, issue.successes)
    case "AnyOf":
      return new SchemaIssue.AnyOf(issue.ast, issue.issues.map(withoutInput))
    case "Filter":
      return new SchemaIssue.Filter(issue.filter, withoutInput(issue.issue))
    default:
      return issue
  }
}

/** Fallback text for an issue nothing more specific describes. */
const describe = (issue: SchemaIssue.Issue): string => {
  // An unannotated custom filter would read "Expected <filter>".
  if (
    issue._tag === "Filter" &&
    issue.filter.annotations?.expected === undefined &&
    !(issue.issue._tag === "InvalidValue" && issue.issue.annotations?.message)
  ) {
    return "Invalid value."
  }
  return format(withoutInput(issue))
}

const REQUIRED_MESSAGE = "This field is required"
const UNKNOWN_FIELD_MESSAGE = "Unknown field."

/** Reads a numeric field of a built-in check's representation payload. */
const numberIn = (payload: Schema.Json, key: string): number | undefined => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return undefined
  const value = (payload as Schema.JsonObject)[key]
  return typeof value === "number" ? value : undefined
}

const inputOf = (issue: SchemaIssue.Issue): unknown => (SchemaIssue.hasInput(issue) ? issue.input : undefined)

/** `"abc"` for primitives the platform would quote, nothing for anything else. */
const quoted = (input: unknown): string | undefined =>
  typeof input === "string" || typeof input === "number" || typeof input === "boolean" || typeof input === "bigint"
    ? `"${String(input)}"`
    : undefined

const hasCheck = (ast: SchemaAST.AST, id: string): boolean =>
  ast.checks?.some((check) => check.annotations?.representation?.id === id) ?? false

/** Field errors for the checks Effect ships, keyed by their representation id. */
const builtInCheck = (filter: SchemaAST.Filter<unknown>, input: unknown): Leaf | undefined => {
  const representation = filter.annotations?.representation
  if (representation === undefined) return undefined
  const { payload } = representation
  switch (representation.id) {
    case "effect/schema/isMinLength":
      return {
        code: FormCode.BaseTypeMinLength,
        message: `Must be ${numberIn(payload, "minLength")} or more in length.`
      }
    case "effect/schema/isMaxLength":
      return {
        code: FormCode.BaseTypeMaxLength,
        message: `Must be ${numberIn(payload, "maxLength")} or fewer in length.`
      }
    case "effect/schema/isBetweenLength":
      return {
        code: FormCode.BaseTypeBadLength,
        message: `Must be between ${numberIn(payload, "minimum")} and ${numberIn(payload, "maximum")} in length.`
      }
    case "effect/schema/isGreaterThanOrEqualTo":
      return {
        code: FormCode.NumberTypeMin,
        message: `Value should be greater than or equal to ${numberIn(payload, "minimum")}.`
      }
    case "effect/schema/isGreaterThan":
      return {
        code: FormCode.NumberTypeMin,
        message: `Value should be greater than ${numberIn(payload, "exclusiveMinimum")}.`
      }
    case "effect/schema/isLessThanOrEqualTo":
      return {
        code: FormCode.NumberTypeMax,
        message: `Value should be less than or equal to ${numberIn(payload, "maximum")}.`
      }
    case "effect/schema/isLessThan":
      return {
        code: FormCode.NumberTypeMax,
        message: `Value should be less than ${numberIn(payload, "exclusiveMaximum")}.`
      }
    case "effect/schema/isBetween": {
      // The platform reports the bound that was crossed; without the input (no `reportInput`) we cannot
      // tell which, so the code stays generic. Two one-sided checks give the exact codes.
      const minimum = numberIn(payload, "minimum")
      const maximum = numberIn(payload, "maximum")
      if (typeof input === "number" && minimum !== undefined && input < minimum) {
        return {
          code: FormCode.NumberTypeMin,
          message: `Value should be greater than or equal to ${minimum}.`
        }
      }
      if (typeof input === "number" && maximum !== undefined && input > maximum) {
        return {
          code: FormCode.NumberTypeMax,
          message: `Value should be less than or equal to ${maximum}.`
        }
      }
      return {
        code: FormCode.BaseTypeInvalid,
        message: `Value should be between ${minimum} and ${maximum}.`
      }
    }
    case "effect/schema/isInt": {
      const value = quoted(input)
      return {
        code: FormCode.NumberTypeCoerce,
        message: value ? `Value ${value} is not int.` : "Value is not int."
      }
    }
    case "effect/schema/isPattern":
      return { code: FormCode.StringTypeRegex, message: "String value did not match validation regex." }
    default:
      return undefined
  }
}

/** Union members that are not `null`/`undefined`, unions flattened. */
const nonNullMembers = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.AST> =>
  ast._tag === "Union"
    ? ast.types.flatMap(nonNullMembers)
    : ast._tag === "Null" || ast._tag === "Undefined"
      ? []
      : [ast]

/** A choice as the platform prints it (a Python set): strings in single quotes, numbers bare. */
const choice = (value: SchemaAST.LiteralValue): string => (typeof value === "string" ? `'${value}'` : String(value))

const choicesOf = (members: ReadonlyArray<SchemaAST.AST>): ReadonlyArray<string> | undefined => {
  const out: Array<string> = []
  for (const member of members) {
    if (member._tag === "Literal") out.push(choice(member.literal))
    else if (member._tag === "Enum") out.push(...member.enums.map(([, value]) => choice(value)))
    else return undefined
  }
  return out.length > 0 ? out : undefined
}

/** The value had the wrong type (or matched no member of a union). */
const wrongType = (ast: SchemaAST.AST, issue: SchemaIssue.Issue): Leaf => {
  const members = nonNullMembers(ast)
  const choices = choicesOf(members)
  if (choices !== undefined) {
    return {
      code: FormCode.BaseTypeChoices,
      message: `Value must be one of {${choices.join(", ")}}.`
    }
  }
  const only = members.length === 1 ? members[0] : undefined
  switch (only?._tag) {
    case "Number":
    case "BigInt": {
      const value = quoted(inputOf(issue))
      const kind = hasCheck(only, "effect/schema/isInt") || only._tag === "BigInt" ? "int" : "a number"
      return {
        code: FormCode.NumberTypeCoerce,
        message: value ? `Value ${value} is not ${kind}.` : `Value is not ${kind}.`
      }
    }
    case "String":
    case "TemplateLiteral":
      return { code: FormCode.BaseTypeInvalid, message: "Must be a string." }
    case "Boolean":
      return { code: FormCode.BaseTypeInvalid, message: "Must be either true or false." }
    case "Objects":
      return { code: FormCode.DictTypeConvert, message: "Must be an object." }
    case "Arrays":
      return { code: FormCode.ListTypeConvert, message: "Must be an array." }
    default:
      return { code: FormCode.BaseTypeInvalid, message: describe(issue) }
  }
}

/** A `message` annotation on the schema itself (the AST's annotations are untyped). */
const messageOf = (ast: SchemaAST.AST): string | undefined => {
  const message = ast.annotations?.message
  return typeof message === "string" ? message : undefined
}

const withOverrides = (leaf: Leaf, formCode: string | undefined, message: string | undefined): Leaf => ({
  code: formCode ?? leaf.code,
  message: message ?? leaf.message
})

/**
 * The field error for a terminal issue. `inherited` is the `formCode` of an enclosing filter that
 * pointed this issue at a field (a struct-level check such as "passwords must match").
 */
export const fromIssue = (issue: SchemaIssue.Issue, inherited?: string): Leaf => {
  switch (issue._tag) {
    case "Filter": {
      const annotations = issue.filter.annotations
      const inner = issue.issue._tag === "InvalidValue" ? issue.issue.annotations : undefined
      const custom = annotations?.message ?? inner?.message
      const builtIn = builtInCheck(issue.filter, inputOf(issue))
      return {
        code: annotations?.formCode ?? inner?.formCode ?? builtIn?.code ?? inherited ?? FormCode.BaseTypeInvalid,
        message: custom ?? builtIn?.message ?? describe(issue)
      }
    }
    case "InvalidValue":
      return { code: issue.annotations?.formCode ?? inherited ?? FormCode.BaseTypeInvalid, message: describe(issue) }
    case "MissingKey":
      return {
        code: issue.annotations?.formCode ?? FormCode.BaseTypeRequired,
        message: issue.annotations?.messageMissingKey ?? REQUIRED_MESSAGE
      }
    case "UnexpectedKey":
      return { code: FormCode.BaseTypeUnknownField, message: UNKNOWN_FIELD_MESSAGE }
    case "InvalidType":
    case "AnyOf":
      return withOverrides(wrongType(issue.ast, issue), issue.ast.annotations?.formCode, messageOf(issue.ast))
    default:
      // OneOf, Forbidden, and (never reached from the walker) structural nodes
      return { code: inherited ?? FormCode.BaseTypeInvalid, message: describe(issue) }
  }
}
