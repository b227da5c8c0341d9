/**
 * Migration 0032 on PostgreSQL: managed roles that bots left behind before every way out of a
 * guild took them along (kicked, banned, taken out with their application) are deleted, with the
 * references members and channels kept to them; a bot still in its guild keeps its role.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MAX_GUILDS_PER_USER } from "@veche/guilds/Guild"
import * as Permissions from "@veche/guilds/Permissions"
import { arrange, newChannel, newMember, newRole, user } from "@veche/guilds/test/contracts/GuildsRepoFixtures"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import orphanBotRoles from "../src/migrations/0032_orphan_bot_roles.ts"
import * as PgGuildsRepo from "../src/PgGuildsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("migration 0032: bots' orphaned managed roles (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgGuildsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provideMerge(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => {
    it.effect("deletes a departed bot's managed role and every reference to it; a present bot's stays", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { repo, guildId } = yield* arrange()
        const [departed, present, person] = yield* Effect.all([user("gone_bot"), user("here_bot"), user()])
        const departedRole = yield* newRole(guildId, { name: "gone", managed: true, botId: departed })
        const presentRole = yield* newRole(guildId, { name: "here", managed: true, botId: present })
        for (const role of [departedRole, presentRole]) yield* repo.createRole(role)
        yield* repo.join(newMember(guildId, departed, { roleIds: [departedRole.id] }), MAX_GUILDS_PER_USER)
        yield* repo.join(newMember(guildId, present, { roleIds: [presentRole.id] }), MAX_GUILDS_PER_USER)
        // a person holding the departed bot's role, as a member could be given a bot's role
        yield* repo.join(
          newMember(guildId, person, { roleIds: [departedRole.id, presentRole.id] }),
          MAX_GUILDS_PER_USER
        )
        const kept = { id: presentRole.id, type: 0 as const, allow: Permissions.Flags.AddReactions, deny: 0n }
        const channel = yield* newChannel(guildId, {
          overwrites: [{ id: departedRole.id, type: 0, allow: Permissions.Flags.SendMessages, deny: 0n }, kept]
        })
        yield* repo.createChannel(channel)
        // what a kick did before this release: the membership went, the role stayed
        yield* sql`DELETE FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${departed}`

        yield* orphanBotRoles
        expect((yield* repo.roles(guildId)).map((role) => role.id).sort()).toEqual([guildId, presentRole.id].sort())
        expect(Option.getOrThrow(yield* repo.member(guildId, person)).roleIds).toEqual([presentRole.id])
        expect(Option.getOrThrow(yield* repo.channel(channel.id)).overwrites).toEqual([kept])
        // run again (another node, a retried start): nothing more goes
        yield* orphanBotRoles
        expect((yield* repo.roles(guildId)).length).toBe(2)
      })
    )
  })
})
