/** The build's rewrite of effect's barrel imports (scripts/effect-imports.ts, run by tsup.config.ts). */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import { rewrite } from "../scripts/effect-imports.ts"

describe("effect-imports", () => {
  it("imports each named module of effect's barrel on its own, types as types, aliases kept", () => {
    expect(rewrite('import { type Config, Effect, Array as Arr } from "effect"\nx')).toBe(
      'import type * as Config from "effect/Config"; import * as Effect from "effect/Effect"; import * as Arr from "effect/Array";\nx'
    )
  })

  it("takes the functions the barrel exports from effect/Function by name", () => {
    expect(rewrite('import { pipe, Layer } from "effect"')).toBe(
      'import { pipe as pipe } from "effect/Function"; import * as Layer from "effect/Layer";'
    )
  })

  it("rewrites the sub-barrels, type-only imports too, and keeps the line count", () => {
    const source =
      'import {\n  HttpRouter,\n  type HttpServer\n} from "effect/http"\nimport type { Redis } from "effect/persistence"\n'
    const rewritten = rewrite(source)
    expect(rewritten).toBe(
      'import * as HttpRouter from "effect/http/HttpRouter"; import type * as HttpServer from "effect/http/HttpServer";\n\n\n\nimport type * as Redis from "effect/persistence/Redis";\n'
    )
    expect(rewritten.split("\n").length).toBe(source.split("\n").length)
  })

  it("reads every barrel's exports, effect/sql's too (its index has line comments between them)", () => {
    expect(rewrite('import { Migrator, SqlClient } from "effect/sql"')).toBe(
      'import * as Migrator from "effect/sql/Migrator"; import * as SqlClient from "effect/sql/SqlClient";'
    )
  })

  it("leaves an import alone when one of its names is not a module of the barrel", () => {
    const source =
      'import { Effect, NotAModule } from "effect"\nimport { Thing } from "effect/nonexistent"\nimport { x } from "effectful"'
    expect(rewrite(source)).toBe(source)
  })

  it("the modules it names are the ones the barrels export", async () => {
    const barrel = await import("effect")
    const http = await import("effect/http")
    expect(barrel.Effect).toBe(Effect)
    expect(http.HttpRouter).toBe(HttpRouter)
  })
})
