/**
 * Stored images go when nothing shows them any more: a replaced or removed avatar, banner or guild
 * icon answers 404 at its old URL, account erasure and guild dissolution delete their images, and a
 * guild refused at the 100-guild cap stores no icon. One set of scenarios for any repositories:
 * test/image-cleanup.test.ts runs them on memory, adapters/postgres/test/ImageCleanup.test.ts on
 * PostgreSQL.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { AccountDeletion, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect, type Layer } from "effect"
import { json, login, PASSWORD, post, register, send } from "./Accounts.ts"
import { createGuild } from "./Guilds.ts"
import { givePlus } from "./Plus.ts"
import { dataUri, png } from "./Png.ts"

const fetchStatus = (path: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) => Effect.map(host.fetch(path), (r) => r.status))

const patchMe = (token: string, body: unknown) =>
  Effect.flatMap(send("PATCH", "/api/v10/users/@me", body, token), (response) =>
    Effect.map(json(response), (profile) => profile as { avatar: string | null; banner: string | null })
  )

/** Registers every scenario; `repositories` is called once per describe block (default memory). */
export const imageCleanupScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  describe("Replaced and erased images are deleted", () => {
    layer(TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() }))((it) => {
      it.effect("a replaced avatar or banner answers 404 at its old URL; an unchanged one stays", () =>
        Effect.gen(function* () {
          const account = yield* register("+79871110001", "images_replaced")
          const token = account.access_token
          // banners are Plus's
          yield* givePlus(account.user_id)
          const first = yield* patchMe(token, { avatar: dataUri(png(64)), banner: dataUri(png(64)) })
          const avatarUrl = (hash: string | null) => `/api/v10/avatars/${account.user_id}/${hash}.png`
          const bannerUrl = (hash: string | null) => `/api/v10/user-banners/${account.user_id}/${hash}.png`
          expect(yield* fetchStatus(avatarUrl(first.avatar))).toBe(200)
          const second = yield* patchMe(token, { avatar: dataUri(png(64)) })
          expect(second.avatar).not.toBe(first.avatar)
          expect(yield* fetchStatus(avatarUrl(first.avatar))).toBe(404)
          expect(yield* fetchStatus(avatarUrl(second.avatar))).toBe(200)
          // the banner was not part of the change: it stays
          expect(yield* fetchStatus(bannerUrl(first.banner))).toBe(200)
          // removing deletes too
          yield* patchMe(token, { banner: null })
          expect(yield* fetchStatus(bannerUrl(first.banner))).toBe(404)
        })
      )

      it.effect("a replaced guild icon answers 404 at its old URL, and a dissolved guild's icon too", () =>
        Effect.gen(function* () {
          const owner = yield* register("+79871110002", "images_guild")
          const guild = (yield* json(
            yield* post("/api/v10/guilds", { name: "Iconic", icon: dataUri(png(64)) }, owner.access_token)
          )) as { id: string; icon: string }
          expect(yield* fetchStatus(`/api/v10/icons/${guild.id}/${guild.icon}.png`)).toBe(200)
          const changed = (yield* json(
            yield* send("PATCH", `/api/v10/guilds/${guild.id}`, { icon: dataUri(png(64)) }, owner.access_token)
          )) as { icon: string }
          expect(changed.icon).not.toBe(guild.icon)
          expect(yield* fetchStatus(`/api/v10/icons/${guild.id}/${guild.icon}.png`)).toBe(404)
          expect(yield* fetchStatus(`/api/v10/icons/${guild.id}/${changed.icon}.png`)).toBe(200)
          // dissolving the guild deletes its icon
          expect((yield* send("DELETE", `/api/v10/guilds/${guild.id}`, undefined, owner.access_token)).status).toBe(204)
          expect(yield* fetchStatus(`/api/v10/icons/${guild.id}/${changed.icon}.png`)).toBe(404)
        })
      )

      it.effect("after erasure the account's avatar and banner are gone", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const account = yield* register("+79871110003", "images_erased")
          yield* givePlus(account.user_id)
          const shown = yield* patchMe(account.access_token, { avatar: dataUri(png(64)), banner: dataUri(png(64)) })
          // Due now rather than in 14 days (test/deletion.test.ts covers the delay): moving the test
          // clock 14 days wakes every minute-by-minute worker, each with real queries on PostgreSQL.
          yield* host.run(
            Effect.gen(function* () {
              const now = yield* DateTime.now
              const deletions = yield* DeletionsRepo.DeletionsRepo
              const userId = Snowflake.Snowflake.make(account.user_id)
              yield* deletions.request({ userId, state: "pending", requestedAt: now, deleteAt: now })
              const erasure = yield* AccountDeletion.AccountDeletion
              expect(yield* erasure.carryOutDue).toBe(1)
            })
          )
          expect((yield* login({ login: "+79871110003", password: PASSWORD })).status).toBe(401)
          expect(yield* fetchStatus(`/api/v10/avatars/${account.user_id}/${shown.avatar}.png`)).toBe(404)
          expect(yield* fetchStatus(`/api/v10/user-banners/${account.user_id}/${shown.banner}.png`)).toBe(404)
        })
      )
    })
  })

  describe("The guild cap is checked before an icon is stored", () => {
    // No storage connected: an icon that were stored would answer 501 instead of the cap's 30001.
    layer(TestHost.layer({ rateLimits: { enabled: false }, mediaStorage: "none", repositories: repositories?.() }))(
      (it) => {
        it.effect("creating a guild with an icon at the cap answers 30001 and stores nothing", () =>
          Effect.gen(function* () {
            const busy = yield* register("+79871110004", "images_capped")
            for (let i = 0; i < 100; i++) yield* createGuild(busy.access_token, `Guild ${i}`)
            const refused = yield* post(
              "/api/v10/guilds",
              { name: "One more", icon: dataUri(png(64)) },
              busy.access_token
            )
            expect(refused.status).toBe(400)
            expect(yield* json(refused)).toMatchObject({ code: 30001 })
          })
        )
      }
    )
  })
}
