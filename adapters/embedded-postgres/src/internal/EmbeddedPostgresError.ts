/**
 * The embedded PostgreSQL's one failure, as data. `reason` says what went wrong in words an operator
 * can act on (which step, which folder, what postgres printed); `cause` keeps the original value.
 * Lives apart from EmbeddedPostgres.ts so the internal helpers can fail with it without an import cycle.
 */
import { Schema } from "effect"

export class EmbeddedPostgresError extends Schema.TaggedError<EmbeddedPostgresError>()("EmbeddedPostgresError", {
  reason: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {
  // Printed causes and logs show `message`; without this it would be empty.
  override get message(): string {
    return this.reason
  }
}
