import { describe, layer } from "@effect/vitest"
import { auditLogRepoContract } from "@veche/moderation/test/contracts/AuditLogRepoContract"
import { Layer, Redacted } from "effect"
import * as PgAuditLogRepo from "../src/PgAuditLogRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("AuditLogRepo (PostgreSQL)", () => {
  layer(PgAuditLogRepo.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => auditLogRepoContract(it))
})
