/**
 * A row check compiled from a row Schema, for statements on every request (the token lookup): the
 * driver already hands back the row's types (bigint for int8, Date for timestamptz, arrays), so
 * decoding only checks them, but the Schema decoder does it by building a copy of the row (4.5 KB
 * allocated and about 4 µs for the 31 columns of `GET /users/@me`). This checks the same things in
 * place and hands back the driver's row.
 *
 * Only schemas whose decoding is a check are taken: structs of required fields, null, string,
 * boolean, bigint, literals, `Schema.Date`, unions and arrays of them, without refinements or
 * transformations. Anything else throws when the guard is built (the repository's layer), so a
 * column schema that needs real decoding cannot slip past it: give that statement the decoder.
 */
import { Schema, SchemaAST } from "effect"

type Check = (value: unknown) => boolean

const DATE_AST = Schema.Date.ast

const unsupported = (ast: SchemaAST.AST): never => {
  throw new Error(`RowGuard: ${ast._tag} needs the Schema decoder (${String(ast)})`)
}

const compile = (ast: SchemaAST.AST): Check => {
  // A refinement or a transformation is the decoder's work.
  if (ast.checks !== undefined || ast.encoding !== undefined || SchemaAST.isOptional(ast)) return unsupported(ast)
  switch (ast._tag) {
    case "Null":
      return (value) => value === null
    case "String":
      return (value) => typeof value === "string"
    case "Boolean":
      return (value) => typeof value === "boolean"
    case "BigInt":
      return (value) => typeof value === "bigint"
    case "Literal": {
      const literal = ast.literal
      return (value) => value === literal
    }
    case "Declaration":
      // Schema.Date: a Date that holds a time (not an invalid one).
      return ast === DATE_AST ? (value) => value instanceof Date && !Number.isNaN(value.getTime()) : unsupported(ast)
    case "Union": {
      // A loop, not `members.some((member) => member(value))`: that closure was allocated per
      // nullable column per row (2 KB a request on GET /users/@me).
      const members = ast.types.map(compile)
      return (value) => {
        for (let index = 0; index < members.length; index++) if (members[index]?.(value) === true) return true
        return false
      }
    }
    case "Arrays": {
      if (ast.elements.length > 0 || ast.rest.length !== 1 || ast.rest[0] === undefined) return unsupported(ast)
      const item = compile(ast.rest[0])
      return (value) => {
        if (!Array.isArray(value)) return false
        for (let index = 0; index < value.length; index++) if (!item(value[index])) return false
        return true
      }
    }
    case "Objects": {
      if (ast.indexSignatures.length > 0) return unsupported(ast)
      // Two arrays and an index loop: destructuring `[name, check]` pairs in a `for…of` allocated
      // on every row (≈1.5 KB a `GET /users/@me`, sampled), as the statement runs on every request.
      const names = ast.propertySignatures.map((field) => field.name)
      const checks = ast.propertySignatures.map((field) => compile(field.type))
      return (value) => {
        if (typeof value !== "object" || value === null) return false
        const row = value as Record<PropertyKey, unknown>
        for (let index = 0; index < names.length; index++) {
          const name = names[index] as PropertyKey
          if (!(name in row) || !(checks[index] as Check)(row[name])) return false
        }
        return true
      }
    }
    default:
      return unsupported(ast)
  }
}

/** `Schema.is` for a row schema of the kinds above, without its cost. Throws for any other schema. */
export const of = <S extends Schema.Top>(schema: S): ((row: unknown) => row is S["Type"]) => {
  const check = compile(schema.ast)
  return (row): row is S["Type"] => check(row)
}
