/**
 * The `errors` tree of an "Invalid Form Body" (50035) answer, in the mirrored platform's shape:
 *
 *   {"username": {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 2 and 32 in length."}]},
 *    "tags": {"1": {"_errors": [...]}},  "_errors": [...]}
 *
 * Objects nest by key, array elements by their index as a string, errors about a node itself (the
 * whole body at the top) sit in its `_errors`. Built from a Schema issue (`fromIssue`) for decoding
 * failures, or by hand (`field`, `root`, `merge`) for rules a domain checks itself.
 */
import { Schema, type SchemaIssue } from "effect"
import * as IssueLeaf from "./internal/IssueLeaf.ts"

/** One field error. */
export type Leaf = { readonly code: string; readonly message: string }

/**
 * A node of the tree. The `_errors` key holds the node's own errors; every other key a child node.
 * (A type alias, not an interface, so that a tree is assignable to `Schema.Json`.)
 */
export type Tree = { readonly [key: string]: Tree | ReadonlyArray<Leaf> }

/** The key under which a node lists its own errors. */
export const ERRORS_KEY = "_errors"

export const Leaf = Schema.Struct({ code: Schema.String, message: Schema.String }).annotate({ identifier: "FormError" })

export const Tree: Schema.Codec<Tree> = Schema.Record(
  Schema.String,
  Schema.Union([Schema.Array(Leaf), Schema.suspend((): Schema.Codec<Tree> => Tree)])
).annotate({ identifier: "FormErrorTree" })

/** No errors. */
export const empty: Tree = {}

const isLeaves = (node: Tree | ReadonlyArray<Leaf>): node is ReadonlyArray<Leaf> => Array.isArray(node)

/** Errors about the body as a whole: `{"_errors": [{code, message}]}`. */
export const root = (code: string, message: string): Tree => ({
  [ERRORS_KEY]: [{ code, message }]
})

/**
 * One error at a field path: `field(["username"], "USERNAME_ALREADY_TAKEN", "Username is unavailable.")`
 * gives `{"username": {"_errors": [...]}}`; array indices may be numbers (`["tags", 1]`).
 */
export const field = (path: ReadonlyArray<PropertyKey>, code: string, message: string): Tree =>
  path.reduceRight<Tree>((inner, key) => ({ [String(key)]: inner }), root(code, message))

const mergeTwo = (left: Tree, right: Tree): Tree => {
  const out: Record<string, Tree | ReadonlyArray<Leaf>> = { ...left }
  for (const [key, value] of Object.entries(right)) {
    const existing = out[key]
    if (existing === undefined) {
      out[key] = value
    } else if (isLeaves(existing) && isLeaves(value)) {
      out[key] = [...existing, ...value]
    } else if (!isLeaves(existing) && !isLeaves(value)) {
      out[key] = mergeTwo(existing, value)
    } else {
      // A list and a node under one key only happens for a payload field literally named
      // "_errors"; the later tree wins rather than producing a shape clients cannot read.
      out[key] = value
    }
  }
  return out
}

/** Deep merge: nodes merge key by key, `_errors` lists concatenate in argument order. */
export const merge = (...trees: ReadonlyArray<Tree>): Tree => trees.reduce(mergeTwo, empty)

export const isEmpty = (tree: Tree): boolean => Object.keys(tree).length === 0

/**
 * At most this many errors in one answer. Decoding with `errors: "all"` reports every bad element of
 * an array: 100 000 wrong elements in a 200 KB body took over a minute to turn into a tree (each
 * merge copied the tree so far) and would have answered megabytes. The first errors are enough to
 * fix a request.
 */
export const MAX_ERRORS = 100

interface Located {
  readonly path: ReadonlyArray<PropertyKey>
  readonly leaf: Leaf
}

/** Issue kinds that only locate or group other issues. */
const isStructural = (issue: SchemaIssue.Issue): boolean =>
  issue._tag === "Pointer" ||
  issue._tag === "Composite" ||
  issue._tag === "Encoding" ||
  issue._tag === "Filter" ||
  (issue._tag === "AnyOf" && issue.issues.length > 0)

const collect = (
  issue: SchemaIssue.Issue,
  path: ReadonlyArray<PropertyKey>,
  inherited: string | undefined,
  out: Array<Located>
): void => {
  if (out.length >= MAX_ERRORS) return
  const here = () => out.push({ path, leaf: IssueLeaf.fromIssue(issue, inherited) })
  switch (issue._tag) {
    case "Pointer":
      collect(issue.issue, [...path, ...issue.path], inherited, out)
      break
    case "Composite":
      for (const inner of issue.issues) {
        if (out.length >= MAX_ERRORS) break
        collect(inner, path, inherited, out)
      }
      break
    case "Encoding":
      collect(issue.issue, path, inherited, out)
      break
    case "AnyOf":
      // No member-specific issues: the value matched no member at all, one error for the field.
      if (issue.issues.length === 0) here()
      for (const inner of issue.issues) collect(inner, path, inherited, out)
      break
    case "Filter": {
      // A struct-level check may point its failure at a field; its formCode then applies there.
      const formCode = issue.filter.annotations?.formCode ?? inherited
      if (isStructural(issue.issue)) collect(issue.issue, path, formCode, out)
      else here()
      break
    }
    default:
      here()
  }
}

/**
 * The tree for a decoding failure. Decode with `{ errors: "all" }` to report every invalid field at
 * once (the platform does; up to `MAX_ERRORS`); without it Schema stops at the first problem.
 */
export const fromIssue = (issue: SchemaIssue.Issue): Tree => {
  const located: Array<Located> = []
  collect(issue, [], undefined, located)
  return merge(...located.map(({ leaf, path }) => field(path, leaf.code, leaf.message)))
}

/** Same as `fromIssue`, from the error a failed decode returns. */
export const fromSchemaError = (error: Schema.SchemaError): Tree => fromIssue(error.issue)
