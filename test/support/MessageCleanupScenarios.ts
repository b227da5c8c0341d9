/**
 * A deleted channel's messages are removed with it, and a dissolved guild's with its channels:
 * through the public routes (DELETE /channels/{id}, DELETE /guilds/{id}), checked in the messages
 * store itself (the routes cannot reach them any more). Run on memory (test/message-cleanup.test.ts)
 * and on PostgreSQL (adapters/postgres/test/MessageCleanup.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { MessagesRepo } from "@veche/messages"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, post, register, send } from "./Accounts.ts"
import { createGuild } from "./Guilds.ts"

const written = (userId: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(
      Effect.flatMap(Effect.service(MessagesRepo.MessagesRepo), (repo) =>
        Effect.map(repo.byAuthor(Snowflake.Snowflake.make(userId)), (messages) => messages.map((m) => m.channelId))
      )
    )
  )

export const messageCleanupScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) =>
  describe("messages of deleted channels and guilds", () => {
    layer(TestHost.layer({ repositories: repositories?.() }), { timeout: "60 seconds" })((it) => {
      it.effect("go with the channel, and with every channel of a dissolved guild", () =>
        Effect.gen(function* () {
          const owner = yield* register("+79050019401", "cleanup_owner")
          const guild = yield* createGuild(owner.access_token, "Cleanup Guild")
          const made = yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "doomed" }, owner.access_token)
          expect(made.status).toBe(201)
          const doomed = ((yield* json(made)) as { id: string }).id
          const kept = guild.system_channel_id
          for (const [channel, count] of [
            [doomed, 3],
            [kept, 2]
          ] as const)
            for (let i = 0; i < count; i++)
              expect(
                (yield* post(`/api/v10/channels/${channel}/messages`, { content: `m${i}` }, owner.access_token)).status
              ).toBe(200)
          expect((yield* written(owner.user_id)).length).toBe(5)

          expect((yield* send("DELETE", `/api/v10/channels/${doomed}`, undefined, owner.access_token)).status).toBe(200)
          expect(
            (yield* send("GET", `/api/v10/channels/${doomed}/messages`, undefined, owner.access_token)).status
          ).toBe(404)
          expect(yield* written(owner.user_id)).toEqual([kept, kept])

          expect((yield* send("DELETE", `/api/v10/guilds/${guild.id}`, undefined, owner.access_token)).status).toBe(204)
          expect(yield* written(owner.user_id)).toEqual([])
        })
      )
    })
  })
