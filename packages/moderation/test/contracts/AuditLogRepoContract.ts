/**
 * The behaviour suite every AuditLogRepo adapter must pass: entries come back as written, newest
 * first, paged by `before`, filtered by action and target. On memory in every run, on PostgreSQL
 * when DATABASE_URL is set (a fresh schema: the log starts empty).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect } from "effect"
import type { AuditEntry } from "../../src/AuditEntry.ts"
import { AuditLogRepo } from "../../src/AuditLogRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(15))
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))

export const auditLogRepoContract = (it: Vitest.MethodsNonLive<AuditLogRepo>) => {
  it.effect("appends, pages newest first by id, filters by action and target", () =>
    Effect.gen(function* () {
      const repo = yield* AuditLogRepo
      const staff = yield* ids.next
      const user = yield* ids.next
      const guild = yield* ids.next
      const written: Array<AuditEntry> = []
      for (const [action, targetType, targetId, details] of [
        ["user.block", "user", user, { until: null }],
        ["discovery.state", "guild", guild, { state: "removed" }],
        ["user.unblock", "user", user, {}],
        ["discovery.words", "catalogue", null, { added: ["казино", "free money"], removed: [] }],
        ["billing.grant", "user", user, { sku: "premium" }]
      ] as const) {
        const entry: AuditEntry = {
          id: yield* ids.next,
          staffId: staff,
          action,
          targetType,
          targetId,
          reason: action === "user.block" ? "Spam\u2014links" : null,
          details,
          createdAt: T0
        }
        yield* repo.append(entry)
        written.push(entry)
      }
      const all = yield* repo.page({ limit: 100, before: null, action: null, targetId: null })
      expect(all).toEqual([...written].reverse())
      const first = yield* repo.page({ limit: 2, before: null, action: null, targetId: null })
      expect(first.map((e) => e.action)).toEqual(["billing.grant", "discovery.words"])
      const next = yield* repo.page({ limit: 2, before: first[1]?.id ?? null, action: null, targetId: null })
      expect(next.map((e) => e.action)).toEqual(["user.unblock", "discovery.state"])
      const blocks = yield* repo.page({ limit: 10, before: null, action: "user.block", targetId: null })
      expect(blocks.map((e) => e.id)).toEqual([written[0]?.id])
      const onUser = yield* repo.page({ limit: 10, before: null, action: null, targetId: user })
      expect(onUser.map((e) => e.action)).toEqual(["billing.grant", "user.unblock", "user.block"])
      const both = yield* repo.page({ limit: 10, before: null, action: "discovery.state", targetId: guild })
      expect(both).toEqual([written[1]])
      expect(yield* repo.page({ limit: 10, before: written[0]?.id ?? null, action: null, targetId: null })).toEqual([])
    })
  )
}
