/**
 * Test seeding through the repository layer, where going through HTTP would be slow or needs a
 * payment provider: Plus for a user (as a staff grant records it), and guild memberships by the
 * hundred (guilds owned by the user, created under the cap the test names).
 */
import { BillingRepo } from "@veche/billing"
import { Guild, GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect } from "effect"

/** A staff id for grants seeded here (the store records it; it checks nothing about it). */
const SEEDING_STAFF = "1"

/** A month of Plus for `userId`, recorded as a staff grant. */
export const givePlus = (userId: string, staffId: string = SEEDING_STAFF) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(
      Effect.gen(function* () {
        const repo = yield* BillingRepo.BillingRepo
        const ids = yield* Snowflake.SnowflakeGenerator
        const now = yield* DateTime.now
        const user = Snowflake.Snowflake.make(userId)
        const staff = Snowflake.Snowflake.make(staffId)
        return yield* repo.grantPlus(
          { id: yield* ids.next, staffId: staff, userId: user, kind: "plus", months: 1, count: 0, createdAt: now },
          now
        )
      })
    )
  )

/** `n` bare guilds owned by `userId` (a role, no channels), each created under `cap`. */
export const seedGuilds = (userId: string, n: number, cap: number) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(
      Effect.gen(function* () {
        const repo = yield* GuildsRepo.GuildsRepo
        const ids = yield* Snowflake.SnowflakeGenerator
        const now = yield* DateTime.now
        const owner = Snowflake.Snowflake.make(userId)
        const one = Effect.gen(function* () {
          const guildId = yield* ids.next
          yield* repo.create(
            {
              guild: {
                id: guildId,
                name: "Seeded",
                icon: null,
                banner: null,
                description: null,
                ownerId: owner,
                verificationLevel: 0,
                defaultMessageNotifications: 0,
                explicitContentFilter: 0,
                systemChannelId: null,
                rulesChannelId: null,
                publicUpdatesChannelId: null,
                afkChannelId: null,
                afkTimeout: 300,
                preferredLocale: "en-US",
                features: [],
                createdAt: now
              },
              everyone: Guild.everyoneRole(guildId),
              channels: [],
              owner: { guildId, userId: owner, nick: null, roleIds: [], joinedAt: now }
            },
            cap
          )
        })
        yield* Effect.forEach(Array.from({ length: n }), () => one, { concurrency: 4, discard: true })
      })
    )
  )
