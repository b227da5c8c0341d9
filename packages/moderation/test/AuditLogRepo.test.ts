import { describe, layer } from "@effect/vitest"
import { AuditLogRepo } from "../src/AuditLogRepo.ts"
import { auditLogRepoContract } from "./contracts/AuditLogRepoContract.ts"

describe("AuditLogRepo (memory)", () => {
  layer(AuditLogRepo.layerMemory)((it) => auditLogRepoContract(it))
})
