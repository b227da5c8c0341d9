/** Handlers of the Exports group: a data-export archive, fetched by the secret its link carries. */
import { RestApi } from "@veche/api"
import { DataExports } from "@veche/auth"
import { NotFound } from "@veche/errors"
import { Snowflake } from "@veche/platform"
import { Effect, Option, Redacted, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"

const isSnowflake = Schema.is(Snowflake.Snowflake)

export const layer: GroupLayer.Public<"exports", DataExports.DataExports> = HttpApiBuilder.group(
  RestApi.RestApi,
  "exports",
  (handlers) =>
    Effect.gen(function* () {
      const exports = yield* DataExports.DataExports
      return handlers.handle("downloadDataExport", ({ params, query }) =>
        Effect.gen(function* () {
          // Anything that is not a valid link for this export looks the same: 404.
          if (query.token === undefined || !isSnowflake(params.export_id)) return yield* new NotFound()
          const archive = yield* exports.download(
            Snowflake.Snowflake.make(params.export_id),
            Redacted.make(query.token)
          )
          if (Option.isNone(archive)) return yield* new NotFound()
          return HttpServerResponse.uint8Array(archive.value, {
            contentType: "application/zip",
            headers: {
              "content-disposition": `attachment; filename="veche-export-${params.export_id}.zip"`,
              "cache-control": "no-store"
            }
          })
        })
      )
    })
)
