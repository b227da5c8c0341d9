/**
 * A channel route's access check on PostgreSQL (issue 19): typing in a channel runs one statement,
 * GuildsRepo.channelPlace (the channel, its guild, the caller's membership and the guild's roles
 * together; they were four statements in two round trips), and still refuses as before: 10003 for
 * no such channel, 50001 for a caller outside the guild. Statements are counted as the spans
 * effect's SQL client opens, one per statement while tracing is on (as LoginStatements.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Messages } from "@veche/messages"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { register } from "~/test/support/Accounts"
import { createGuild } from "~/test/support/Guilds"
import { spansOf, statements } from "~/test/support/StatementSpans"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

let counter = 0
const phone = () => `+7946444${String((process.pid * 10 + ++counter) % 10_000).padStart(4, "0")}`

const host = () =>
  TestHost.layer({
    repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })

const typing = (userId: string, channelId: string) =>
  Effect.gen(function* () {
    const messages = yield* Messages.Messages
    return yield* Effect.result(
      messages.typing({ userId: Snowflake.Snowflake.make(userId), bot: false }, Snowflake.Snowflake.make(channelId))
    )
  })

describe.runIf(url !== undefined && url !== "")("Typing on PostgreSQL", () => {
  layer(host(), { timeout: 60_000 })((it) => {
    it.effect("typing in a channel runs one statement; no such channel and a stranger are refused as before", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const owner = yield* register(phone(), `typing_owner_${process.pid % 1000}`)
        const stranger = yield* register(phone(), `typing_stranger_${process.pid % 1000}`)
        const guild = yield* createGuild(owner.access_token)
        const { result, names } = yield* testHost.run(spansOf(typing(owner.user_id, guild.system_channel_id)))
        expect(result._tag).toBe("Success")
        expect(statements(names)).toHaveLength(1)
        // The tracer did see the typing: the count is not one for want of spans.
        expect(names).toContain("Messages.typing")

        const refused = (userId: string, channelId: string) =>
          Effect.map(testHost.run(typing(userId, channelId)), (r) => (r._tag === "Failure" ? r.failure._tag : r._tag))
        expect(yield* refused(stranger.user_id, guild.system_channel_id)).toBe("NoAccess")
        expect(yield* refused(owner.user_id, guild.id)).toBe("NoSuchChannel")
      })
    )
  })
})
