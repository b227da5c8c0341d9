/**
 * The data-export download: the archive behind the link `GET /users/@me/export` answers. The link
 * carries its own secret (it is meant for a browser's download), so the group takes no
 * credentials. Pure data.
 */
import { NotFound } from "@veche/errors"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"

/** The archive itself. */
export const ArchiveBytes = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "application/zip" }))

export class ExportsApi extends HttpApiGroup.make("exports")
  .add(
    HttpApiEndpoint.get("downloadDataExport", "/exports/:export_id", {
      params: { export_id: Schema.String },
      query: { token: Schema.optionalKey(Schema.String) },
      success: ArchiveBytes,
      error: NotFound
    })
  )
  .annotate(OpenApi.Description, "Data-export archives, fetched by the link a ready export carries.") {}
